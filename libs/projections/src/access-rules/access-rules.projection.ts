import type { AccessRuleState } from '#hawser/domain';
import { derivedCollection, singleStreamProjection } from '#hawser/read-models';
import {
  evolveShareState,
  shareStream,
  type ShareStateDocument,
  type ShareStreamEvent,
} from '../shares/share-fold.js';
import { ACCESS_RULES, toAccessRuleDocument } from './access-rule.documents.js';

export const ACCESS_RULE_SHARE_STATES = 'access_rule_share_states';

/**
 * Access rules per share (allow_access/access_list, share-access-rules API). Rules live in
 * their share's stream; the projection folds each share and writes the rules that changed.
 */
export const accessRulesProjection = singleStreamProjection<ShareStateDocument, ShareStreamEvent>({
  name: 'access-rules',
  collection: ACCESS_RULE_SHARE_STATES,
  ...shareStream,
  indexes: { [ACCESS_RULES]: [['share_id', 'created_at']] },
  evolve: evolveShareState,
  derived: [
    derivedCollection<ShareStateDocument, AccessRuleState>({
      collection: ACCESS_RULES,
      items: (document) => document.state.accessRules,
      toDocument: (document, rule) => toAccessRuleDocument(document.state, rule, document.revision),
      // Evolve keeps an unchanged rule's object, so its document stands as written.
      rewrite: 'when-changed',
    }),
  ],
});
