import type { ShareDocument } from '#hawser/projections';
import { resourceLinks, since, type ViewContext } from './view-context.js';

/** Manila's share detail view, field for field per microversion (reference 1.1). */
export const shareDetailView = (doc: ShareDocument, ctx: ViewContext): Record<string, unknown> => {
  let status = doc.status;
  if (status === 'creating_from_snapshot' && !since(ctx, '2.54')) status = 'creating';
  const view: Record<string, unknown> = {
    id: doc.id,
    size: doc.size,
    availability_zone: doc.availability_zone,
    created_at: doc.created_at,
    status,
    name: doc.name,
    description: doc.description,
    project_id: doc.project_id,
    snapshot_id: doc.snapshot_id,
    share_network_id: doc.share_network_id,
    share_proto: doc.share_proto,
    metadata: doc.metadata,
    share_type: doc.share_type_name,
    volume_type: doc.share_type_name,
    links: resourceLinks(ctx, 'shares', doc.id),
    is_public: doc.is_public,
  };
  if (!since(ctx, '2.9')) {
    const paths = doc.export_locations.map((l) => l.path);
    view.export_location = paths[0] ?? null;
    view.export_locations = paths;
  }
  if (since(ctx, '2.2')) view.snapshot_support = doc.snapshot_support;
  if (since(ctx, '2.5')) view.task_state = doc.task_state;
  if (since(ctx, '2.6')) {
    view.share_type = doc.share_type_id;
    view.share_type_name = doc.share_type_name;
  }
  if (since(ctx, '2.10')) {
    view.access_rules_status =
      doc.access_rules_status === 'syncing' && !since(ctx, '2.28')
        ? 'out_of_sync'
        : doc.access_rules_status;
  }
  if (since(ctx, '2.11')) {
    view.replication_type = doc.replication_type;
    view.has_replicas = doc.has_replicas;
  }
  if (since(ctx, '2.16')) view.user_id = doc.user_id;
  if (since(ctx, '2.24')) {
    view.create_share_from_snapshot_support = doc.create_share_from_snapshot_support;
  }
  if (since(ctx, '2.27')) view.revert_to_snapshot_support = doc.revert_to_snapshot_support;
  if (since(ctx, '2.31')) {
    view.share_group_id = doc.share_group_id;
    view.source_share_group_snapshot_member_id = doc.source_share_group_snapshot_member_id;
  }
  if (since(ctx, '2.32')) view.mount_snapshot_support = doc.mount_snapshot_support;
  if (since(ctx, '2.54')) view.progress = doc.progress;
  if (since(ctx, '2.69')) {
    view.is_soft_deleted = doc.is_soft_deleted;
    view.scheduled_to_be_deleted_at = doc.scheduled_to_be_deleted_at ?? null;
  }
  if (ctx.isAdmin) {
    view.share_server_id = doc.share_server_id;
    view.host = doc.host;
  }
  return view;
};

export const shareSummaryView = (doc: ShareDocument, ctx: ViewContext) => ({
  id: doc.id,
  name: doc.name,
  links: resourceLinks(ctx, 'shares', doc.id),
});
