import type { SnapshotState } from '#hawser/domain';
import { derivedCollection, singleStreamProjection } from '#hawser/read-models';
import {
  evolveShareState,
  shareStream,
  type ShareStateDocument,
  type ShareStreamEvent,
} from '../shares/share-fold.js';
import { SNAPSHOTS, toSnapshotDocument } from './snapshot.documents.js';

export const SNAPSHOT_SHARE_STATES = 'snapshot_share_states';

/**
 * The snapshot listing (Manila's snapshots API). Snapshots live in their share's stream, so
 * the projection folds each share; a share's snapshots are rewritten on each of its events
 * (the share's size and replica states show in them), and removed when they go.
 */
export const snapshotsProjection = singleStreamProjection<ShareStateDocument, ShareStreamEvent>({
  name: 'snapshots',
  collection: SNAPSHOT_SHARE_STATES,
  ...shareStream,
  indexes: { [SNAPSHOTS]: [['project_id', 'created_at'], ['share_id']] },
  evolve: evolveShareState,
  derived: [
    derivedCollection<ShareStateDocument, SnapshotState>({
      collection: SNAPSHOTS,
      items: (document) => document.state.snapshots,
      toDocument: (document, snapshot) =>
        toSnapshotDocument(document.state, snapshot, document.revision),
      rewrite: 'every-event',
    }),
  ],
});
