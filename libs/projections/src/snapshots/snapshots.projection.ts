import { shareItems } from '../shares/share-fold.js';
import { SNAPSHOTS, toSnapshotDocument } from './snapshot.documents.js';

/**
 * The snapshot listing (Manila's snapshots API), derived by the shares projection: snapshots
 * live in their share's stream; a share's snapshots are rewritten on each of its events (the
 * share's size and replica states show in them), and removed when they go.
 */
export const snapshotItems = shareItems({
  collection: SNAPSHOTS,
  items: (share) => share.snapshots,
  toDocument: toSnapshotDocument,
  rewrite: 'every-event',
});

export const SNAPSHOT_INDEXES = {
  [SNAPSHOTS]: [['project_id', 'created_at'], ['share_id']],
} as const;
