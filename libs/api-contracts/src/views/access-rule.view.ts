import type { AccessRuleDocument } from '#hawser/projections';
import { since, type ViewContext } from './view-context.js';

/**
 * Before 2.28 a rule shows the share's access_rules_status instead of its own state, with
 * `syncing` shown as `new` (reference 1.7); it is derived here from the share's rules.
 */
export const legacyAccessState = (rules: readonly AccessRuleDocument[]): string => {
  const states = rules.flatMap((r) => Object.values(r.instance_states));
  if (states.includes('error')) return 'error';
  return states.every((s) => s === 'active') ? 'active' : 'new';
};

const fields = (
  doc: AccessRuleDocument,
  ctx: ViewContext,
  legacyState: string,
): Record<string, unknown> => {
  const view: Record<string, unknown> = {
    id: doc.id,
    access_level: doc.access_level,
    access_to: doc.access_to,
    access_type: doc.access_type,
    state: since(ctx, '2.28') ? doc.state : legacyState,
  };
  if (since(ctx, '2.21')) view.access_key = doc.access_key;
  if (since(ctx, '2.33')) {
    view.created_at = doc.created_at;
    view.updated_at = doc.updated_at;
  }
  if (since(ctx, '2.45')) view.metadata = doc.metadata;
  return view;
};

/** allow_access's answer and GET /share-access-rules/{id}: `{"access": ...}`. */
export const accessRuleView = (
  doc: AccessRuleDocument,
  ctx: ViewContext,
  legacyState = 'active',
): Record<string, unknown> => ({ share_id: doc.share_id, ...fields(doc, ctx, legacyState) });

/** One entry of `access_list` (no share_id). */
export const accessListEntryView = (
  doc: AccessRuleDocument,
  ctx: ViewContext,
  legacyState = 'active',
): Record<string, unknown> => fields(doc, ctx, legacyState);
