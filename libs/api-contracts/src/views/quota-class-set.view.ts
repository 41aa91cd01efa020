import type { QuotaResource } from '#hawser/domain';
import { visibleQuotaResources } from './quota-set.view.js';
import type { ViewContext } from './view-context.js';

/**
 * Manila's quota class set: the limits the microversion shows (the keys of a project's quota
 * set); `id` is the class on show and absent on update, as in Manila.
 */
export const quotaClassSetView = (
  limitOf: (resource: QuotaResource) => number,
  ctx: ViewContext,
  className?: string,
): { quota_class_set: Record<string, unknown> } => ({
  quota_class_set: {
    ...(className !== undefined && { id: className }),
    ...Object.fromEntries(visibleQuotaResources(ctx).map((r) => [r, limitOf(r)])),
  },
});
