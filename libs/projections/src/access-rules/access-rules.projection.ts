import { SHARE_STREAM_PREFIX, accessRulesOf } from '#hawser/domain';
import type { RecordedEvent } from '#hawser/eventstore';
import type { Projection, ProjectionContext } from '#hawser/read-models';
import { foldShareEvent } from '../snapshots/share-state-fold.js';
import { ACCESS_RULES, toAccessRuleDocument } from './access-rule.documents.js';

export const ACCESS_RULE_SHARE_STATES = 'access_rule_share_states';

/**
 * Access rules per share (allow_access/access_list, share-access-rules API). Rules live in
 * their share's stream; each share event is folded with the domain's `evolve` and the rules
 * that changed are written, those that went are removed.
 */
export const accessRulesProjection: Projection = {
  name: 'access-rules',
  collections: [ACCESS_RULES, ACCESS_RULE_SHARE_STATES],
  filter: { streamPrefixes: [SHARE_STREAM_PREFIX] },
  indexes: { [ACCESS_RULES]: [['share_id', 'created_at']] },
  async handle(event: RecordedEvent, ctx: ProjectionContext): Promise<void> {
    const folded = await foldShareEvent(event, ctx, ACCESS_RULE_SHARE_STATES);
    if (!folded) return;
    const { before, after } = folded;
    const current = new Set(accessRulesOf(after).map((r) => r.id));
    for (const rule of accessRulesOf(before)) {
      if (!current.has(rule.id)) ctx.delete(ACCESS_RULES, rule.id);
    }
    if (after.kind === 'absent') return;
    const previous = new Map(accessRulesOf(before).map((r) => [r.id, r]));
    for (const rule of after.accessRules) {
      // Evolve keeps unchanged rules by reference: only changed ones are written.
      if (previous.get(rule.id) !== rule) {
        ctx.put(ACCESS_RULES, toAccessRuleDocument(after, rule, event.revision));
      }
    }
  },
};
