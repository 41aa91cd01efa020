import { SHARE_STREAM_PREFIX, snapshotsOf } from '#hawser/domain';
import type { RecordedEvent } from '#hawser/eventstore';
import type { Projection, ProjectionContext } from '#hawser/read-models';
import { foldShareEvent } from './share-state-fold.js';
import { SNAPSHOTS, toSnapshotDocument } from './snapshot.documents.js';

export const SNAPSHOT_SHARE_STATES = 'snapshot_share_states';

/**
 * The snapshot listing (Manila's snapshots API). Snapshots live in their share's stream, so
 * each share event is folded with the domain's `evolve`; a share's snapshots are rewritten when
 * it has any (the share's size and replica states show in them), and removed when they go.
 */
export const snapshotsProjection: Projection = {
  name: 'snapshots',
  collections: [SNAPSHOTS, SNAPSHOT_SHARE_STATES],
  filter: { streamPrefixes: [SHARE_STREAM_PREFIX] },
  indexes: { [SNAPSHOTS]: [['project_id', 'created_at'], ['share_id']] },
  async handle(event: RecordedEvent, ctx: ProjectionContext): Promise<void> {
    const folded = await foldShareEvent(event, ctx, SNAPSHOT_SHARE_STATES);
    if (!folded) return;
    const { before, after } = folded;
    const current = new Set(snapshotsOf(after).map((s) => s.id));
    for (const snapshot of snapshotsOf(before)) {
      if (!current.has(snapshot.id)) ctx.delete(SNAPSHOTS, snapshot.id);
    }
    if (after.kind === 'absent') return;
    if (snapshotsOf(before).length === 0 && after.snapshots.length === 0) return;
    for (const snapshot of after.snapshots) {
      ctx.put(SNAPSHOTS, toSnapshotDocument(after, snapshot, event.revision));
    }
  },
};
