import { shareItemsProjection } from '../shares/share-fold.js';
import { ACCESS_RULES, toAccessRuleDocument } from './access-rule.documents.js';

export const ACCESS_RULE_SHARE_STATES = 'access_rule_share_states';

/**
 * Access rules per share (allow_access/access_list, share-access-rules API). Rules live in
 * their share's stream; the projection folds each share and writes the rules that changed.
 */
export const accessRulesProjection = shareItemsProjection({
  name: 'access-rules',
  stateCollection: ACCESS_RULE_SHARE_STATES,
  collection: ACCESS_RULES,
  indexes: { [ACCESS_RULES]: [['share_id', 'created_at']] },
  items: (share) => share.accessRules,
  toDocument: toAccessRuleDocument,
  // Evolve keeps an unchanged rule's object, so its document stands as written.
  rewrite: 'when-changed',
});
