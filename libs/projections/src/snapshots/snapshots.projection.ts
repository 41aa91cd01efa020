import { shareItemsProjection } from '../shares/share-fold.js';
import { SNAPSHOTS, toSnapshotDocument } from './snapshot.documents.js';

export const SNAPSHOT_SHARE_STATES = 'snapshot_share_states';

/**
 * The snapshot listing (Manila's snapshots API). Snapshots live in their share's stream, so
 * the projection folds each share; a share's snapshots are rewritten on each of its events
 * (the share's size and replica states show in them), and removed when they go.
 */
export const snapshotsProjection = shareItemsProjection({
  name: 'snapshots',
  stateCollection: SNAPSHOT_SHARE_STATES,
  collection: SNAPSHOTS,
  indexes: { [SNAPSHOTS]: [['project_id', 'created_at'], ['share_id']] },
  items: (share) => share.snapshots,
  toDocument: toSnapshotDocument,
  rewrite: 'every-event',
});
