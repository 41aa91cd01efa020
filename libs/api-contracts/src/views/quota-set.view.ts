import type { QuotaResource } from '#hawser/domain';
import { since, type ViewContext } from './view-context.js';

/**
 * The keys of a quota set the microversion shows (reference 1.10). A share type's quotas have
 * no share_networks nor share-group keys.
 */
export const visibleQuotaResources = (ctx: ViewContext, forShareType = false): QuotaResource[] => [
  'shares',
  'gigabytes',
  'snapshots',
  'snapshot_gigabytes',
  ...(forShareType ? [] : (['share_networks'] as const)),
  ...(since(ctx, '2.40') && !forShareType
    ? (['share_groups', 'share_group_snapshots'] as const)
    : []),
  ...(since(ctx, '2.53') ? (['share_replicas', 'replica_gigabytes'] as const) : []),
  ...(since(ctx, '2.62') ? (['per_share_gigabytes'] as const) : []),
];

/**
 * Manila's quota set: a value per resource (a limit, or `{limit, in_use, reserved}` for the
 * detail view); `id` is the project on show and defaults and absent on update (a quirk kept).
 */
export const quotaSetView = <T>(
  valueOf: (resource: QuotaResource) => T,
  ctx: ViewContext,
  projectId?: string,
  forShareType = false,
): { quota_set: Record<string, unknown> } => ({
  quota_set: {
    ...(projectId !== undefined && { id: projectId }),
    ...Object.fromEntries(visibleQuotaResources(ctx, forShareType).map((r) => [r, valueOf(r)])),
  },
});
