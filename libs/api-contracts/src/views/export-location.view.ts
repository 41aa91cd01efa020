import type { ExportLocationDocument, ShareInstanceDocument } from '#hawser/projections';
import { manilaTimestamp } from './manila-timestamp.js';
import { since, type ViewContext } from './view-context.js';

/**
 * Manila's export location summary (reference 1.4): `preferred` from 2.14, and for admins the
 * owning instance and the admin-only flag.
 */
export const exportLocationView = (
  location: ExportLocationDocument,
  ctx: ViewContext,
): Record<string, unknown> => {
  const view: Record<string, unknown> = { id: location.id, path: location.path };
  if (since(ctx, '2.14')) view.preferred = location.preferred;
  if (ctx.isAdmin) {
    view.share_instance_id = location.share_instance_id;
    view.is_admin_only = location.is_admin_only;
  }
  return view;
};

/**
 * The detail (show) adds when the location was recorded, printed as Manila prints it. Hawser
 * keeps no timestamps per location: those of the instance that holds it stand in.
 */
export const exportLocationDetailView = (
  location: ExportLocationDocument,
  instance: ShareInstanceDocument,
  ctx: ViewContext,
): Record<string, unknown> => ({
  ...exportLocationView(location, ctx),
  created_at: manilaTimestamp(instance.created_at),
  updated_at: manilaTimestamp(instance.updated_at),
});

/** The locations a caller may list: non-admins never see admin-only ones. */
export const visibleExportLocations = (
  locations: readonly ExportLocationDocument[],
  ctx: ViewContext,
): ExportLocationDocument[] => locations.filter((l) => ctx.isAdmin || !l.is_admin_only);

/**
 * The instances whose locations GET /shares/{id}/export_locations shows: all but a migration
 * destination, and from 2.47 no secondary replica (`ignore_secondary_replicas`).
 */
export const exportingInstances = (
  instances: readonly ShareInstanceDocument[],
  ctx: ViewContext,
): ShareInstanceDocument[] =>
  instances.filter(
    (i) =>
      i.status !== 'migrating_to' &&
      (!since(ctx, '2.47') || i.replica_state === null || i.replica_state === 'active'),
  );
