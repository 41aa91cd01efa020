import type { ShareInstanceDocument } from '#hawser/projections';
import { since, type ViewContext } from './view-context.js';

/** Manila's share instance view (admin API), field for field per microversion (reference 1.2). */
export const shareInstanceView = (
  doc: ShareInstanceDocument,
  ctx: ViewContext,
): Record<string, unknown> => {
  let status = doc.status;
  if (status === 'creating_from_snapshot' && !since(ctx, '2.54')) status = 'creating';
  const view: Record<string, unknown> = {
    id: doc.id,
    share_id: doc.share_id,
    availability_zone: doc.availability_zone,
    created_at: doc.created_at,
    host: doc.host,
    status,
    share_network_id: doc.share_network_id,
    share_server_id: doc.share_server_id,
  };
  if (!since(ctx, '2.9')) {
    const paths = doc.export_locations.map((l) => l.path);
    view.export_location = paths[0] ?? null;
    view.export_locations = paths;
  }
  if (since(ctx, '2.10')) view.access_rules_status = doc.access_rules_status;
  if (since(ctx, '2.11')) view.replica_state = doc.replica_state;
  if (since(ctx, '2.22')) view.share_type_id = doc.share_type_id;
  if (since(ctx, '2.30')) view.cast_rules_to_readonly = doc.cast_rules_to_readonly;
  if (since(ctx, '2.54')) view.progress = doc.progress;
  if (since(ctx, '2.71')) view.updated_at = doc.updated_at;
  return view;
};
