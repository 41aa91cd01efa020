import type { ShareTypeDocument } from '#hawser/projections';
import { since, type ViewContext } from './view-context.js';

/** Manila's ExtraSpecs.TENANT_VISIBLE: the required spec and the standard optional ones. */
const TENANT_VISIBLE_SPECS = new Set([
  'driver_handles_share_servers',
  'snapshot_support',
  'create_share_from_snapshot_support',
  'revert_to_snapshot_support',
  'mount_snapshot_support',
  'replication_type',
  'availability_zones',
  'provisioning:max_share_size',
  'provisioning:min_share_size',
]);
const INFERRED_SPECS = [
  'snapshot_support',
  'create_share_from_snapshot_support',
  'revert_to_snapshot_support',
  'mount_snapshot_support',
];

/** Manila's share type view (reference 1.6); callers wrap it twice (share_type, volume_type). */
export const shareTypeView = (
  doc: ShareTypeDocument,
  ctx: ViewContext,
  defaultShareType: string | undefined,
): Record<string, unknown> => {
  let specs: Record<string, string | boolean> = { ...doc.extra_specs };
  if (!ctx.isAdmin) {
    specs = Object.fromEntries(Object.entries(specs).filter(([k]) => TENANT_VISIBLE_SPECS.has(k)));
    if (since(ctx, '2.24')) {
      // Manila adds the missing ones as JSON false (INFERRED_OPTIONAL_MAP), not as text.
      for (const key of INFERRED_SPECS) if (!(key in specs)) specs[key] = false;
    }
  }
  const view: Record<string, unknown> = {
    id: doc.id,
    name: doc.name,
    extra_specs: specs,
    required_extra_specs:
      doc.extra_specs.driver_handles_share_servers === undefined
        ? {}
        : { driver_handles_share_servers: doc.extra_specs.driver_handles_share_servers },
  };
  view[since(ctx, '2.7') ? 'share_type_access:is_public' : 'os-share-type-access:is_public'] =
    doc.is_public;
  if (since(ctx, '2.41')) view.description = doc.description;
  if (since(ctx, '2.46')) {
    view.is_default =
      defaultShareType !== undefined && [doc.name, doc.id].includes(defaultShareType);
  }
  return view;
};
