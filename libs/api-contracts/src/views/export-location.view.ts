import type { ExportLocationDocument } from '#hawser/projections';
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

/** The locations a caller may list: non-admins never see admin-only ones. */
export const visibleExportLocations = (
  locations: readonly ExportLocationDocument[],
  ctx: ViewContext,
): ExportLocationDocument[] => locations.filter((l) => ctx.isAdmin || !l.is_admin_only);
