import type { SnapshotDocument } from '#hawser/projections';
import { resourceLinks, since, type ViewContext } from './view-context.js';

/** Manila's snapshot detail view, per microversion (reference 1.5). */
export const snapshotDetailView = (
  doc: SnapshotDocument,
  ctx: ViewContext,
): Record<string, unknown> => {
  const view: Record<string, unknown> = {
    id: doc.id,
    share_id: doc.share_id,
    share_size: doc.share_size,
    created_at: doc.created_at,
    status: doc.status,
    name: doc.name,
    description: doc.description,
    size: doc.size,
    share_proto: doc.share_proto,
    links: resourceLinks(ctx, 'snapshots', doc.id),
  };
  if (since(ctx, '2.12') && ctx.isAdmin) view.provider_location = doc.provider_location;
  if (since(ctx, '2.17')) {
    view.user_id = doc.user_id;
    view.project_id = doc.project_id;
  }
  if (since(ctx, '2.73')) view.metadata = doc.metadata ?? {};
  return view;
};

export const snapshotSummaryView = (doc: SnapshotDocument, ctx: ViewContext) => ({
  id: doc.id,
  name: doc.name,
  links: resourceLinks(ctx, 'snapshots', doc.id),
});
