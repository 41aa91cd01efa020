import { notFoundError } from '../errors/manila-error.js';
import { manilaTimestamp } from './manila-timestamp.js';
import { resourceLinks, type ViewContext } from './view-context.js';

/** One export location of a mountable snapshot's instance (2.32). */
export interface SnapshotExportLocationDocument {
  id: string;
  path: string;
  is_admin_only: boolean;
  share_snapshot_instance_id: string;
  created_at: string;
  updated_at: string;
}

/**
 * Manila's api/views/share_snapshot_export_locations.py: id, path and links; for admins the
 * snapshot instance and the admin-only flag; the detail adds when it was recorded, printed as
 * Manila prints datetimes.
 */
export const snapshotExportLocationView = (
  location: SnapshotExportLocationDocument,
  ctx: ViewContext,
  detail = false,
): Record<string, unknown> => {
  const view: Record<string, unknown> = {
    id: location.id,
    path: location.path,
    links: resourceLinks(ctx, 'share_snapshot_export_locations', location.id),
  };
  if (ctx.isAdmin) {
    view.share_snapshot_instance_id = location.share_snapshot_instance_id;
    view.is_admin_only = location.is_admin_only;
  }
  if (detail) {
    view.created_at = manilaTimestamp(location.created_at);
    view.updated_at = manilaTimestamp(location.updated_at);
  }
  return view;
};

/** The locations a caller may list: non-admins never see admin-only ones. */
export const snapshotExportLocationsView = (
  locations: readonly SnapshotExportLocationDocument[],
  ctx: ViewContext,
) => ({
  share_snapshot_export_locations: locations
    .filter((l) => ctx.isAdmin || !l.is_admin_only)
    .map((l) => snapshotExportLocationView(l, ctx)),
});

/** GET …/export-locations/{id}: the detail of one of `locations`, else Manila's 404. */
export const snapshotExportLocationShown = (
  locations: readonly SnapshotExportLocationDocument[],
  locationId: string,
  ctx: ViewContext,
) => {
  const location = locations.find((l) => l.id === locationId);
  if (!location) throw notFoundError(`Export location ${locationId} could not be found.`);
  return { share_snapshot_export_location: snapshotExportLocationView(location, ctx, true) };
};

/** One read-only access rule of a mountable snapshot (Manila's detail_access). */
export interface SnapshotAccessDocument {
  id: string;
  access_type: string;
  access_to: string;
  state: string;
}

export const snapshotAccessView = (rule: SnapshotAccessDocument) => ({
  id: rule.id,
  access_type: rule.access_type,
  access_to: rule.access_to,
  state: rule.state,
});
