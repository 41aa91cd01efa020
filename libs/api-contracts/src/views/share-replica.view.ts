import type { ExportLocationDocument, ShareInstanceDocument } from '#hawser/projections';
import { exportLocationDetailView, exportLocationView } from './export-location.view.js';
import { since, type ViewContext } from './view-context.js';

/** Manila's replica summary (`GET /share-replicas`, reference 1.3). */
export const shareReplicaSummaryView = (doc: ShareInstanceDocument): Record<string, unknown> => ({
  id: doc.id,
  share_id: doc.share_id,
  status: doc.status,
  replica_state: doc.replica_state,
});

/** Manila's replica detail (reference 1.3): host and share server for admins only. */
export const shareReplicaDetailView = (
  doc: ShareInstanceDocument,
  ctx: ViewContext,
): Record<string, unknown> => ({
  id: doc.id,
  share_id: doc.share_id,
  availability_zone: doc.availability_zone,
  created_at: doc.created_at,
  status: doc.status,
  share_network_id: doc.share_network_id,
  replica_state: doc.replica_state,
  updated_at: doc.updated_at,
  ...(ctx.isAdmin && {
    share_server_id: doc.share_server_id,
    host: doc.host,
    ...(since(ctx, '2.30') && { cast_rules_to_readonly: doc.cast_rules_to_readonly }),
  }),
});

/**
 * A replica's export location (reference 1.4, `replica=True`): the summary plus the owning
 * replica's state and zone; the detail adds the timestamps.
 */
export const replicaExportLocationView = (
  location: ExportLocationDocument,
  replica: ShareInstanceDocument,
  ctx: ViewContext,
  detail: boolean,
): Record<string, unknown> => ({
  ...(detail
    ? exportLocationDetailView(location, replica, ctx)
    : exportLocationView(location, ctx)),
  replica_state: replica.replica_state,
  availability_zone: replica.availability_zone,
});
