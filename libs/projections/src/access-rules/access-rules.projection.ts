import { shareItems } from '../shares/share-fold.js';
import { ACCESS_RULES, toAccessRuleDocument } from './access-rule.documents.js';

/**
 * Access rules per share (allow_access/access_list, share-access-rules API), derived by the
 * shares projection: rules live in their share's stream; only the rules that changed are written.
 */
export const accessRuleItems = shareItems({
  collection: ACCESS_RULES,
  items: (share) => share.accessRules,
  toDocument: toAccessRuleDocument,
  // Evolve keeps an unchanged rule's object, so its document stands as written.
  rewrite: 'when-changed',
});

export const ACCESS_RULE_INDEXES = { [ACCESS_RULES]: [['share_id', 'created_at']] } as const;
