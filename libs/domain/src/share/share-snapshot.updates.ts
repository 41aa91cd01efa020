import type { SnapshotInstanceState, SnapshotState } from './share-snapshot.state.js';
import type { ActiveShare } from './share.state.js';

export const updateSnapshot = (
  state: ActiveShare,
  snapshotId: string,
  update: (snapshot: SnapshotState) => SnapshotState,
): ActiveShare => ({
  ...state,
  snapshots: state.snapshots.map((s) => (s.id === snapshotId ? update(s) : s)),
});

/** Replaces a snapshot's instances, marking the snapshot updated at `at`. */
export const updateInstances = (
  state: ActiveShare,
  snapshotId: string,
  at: string,
  update: (instances: readonly SnapshotInstanceState[]) => SnapshotInstanceState[],
): ActiveShare =>
  updateSnapshot(state, snapshotId, (s) => ({
    ...s,
    updatedAt: at,
    instances: update(s.instances),
  }));

/** Updates one instance, marking it and its snapshot updated at `at`. */
export const updateSnapshotInstance = (
  state: ActiveShare,
  snapshotId: string,
  instanceId: string,
  at: string,
  update: (instance: SnapshotInstanceState) => SnapshotInstanceState,
): ActiveShare =>
  updateInstances(state, snapshotId, at, (instances) =>
    instances.map((i) => (i.id === instanceId ? { ...update(i), updatedAt: at } : i)),
  );

/** What every way of starting a snapshot records: who asked, its names and size, when. */
export interface SnapshotStart {
  readonly snapshotId: string;
  readonly projectId: string;
  readonly userId: string;
  readonly name: string | null;
  readonly description: string | null;
  readonly size: number;
  readonly createdAt: string;
}

/** A new snapshot of the share, its instances `status` at 0%, nothing else recorded yet. */
export const newSnapshot = (
  d: SnapshotStart,
  instances: readonly { id: string; shareInstanceId: string }[],
  status: SnapshotInstanceState['status'],
  providerLocation: string | null = null,
): SnapshotState => ({
  id: d.snapshotId,
  projectId: d.projectId,
  userId: d.userId,
  name: d.name,
  description: d.description,
  size: d.size,
  deletionForced: false,
  createdAt: d.createdAt,
  updatedAt: d.createdAt,
  instances: instances.map((i) => ({
    id: i.id,
    shareInstanceId: i.shareInstanceId,
    status,
    progress: '0%',
    providerLocation,
    createdAt: d.createdAt,
    updatedAt: d.createdAt,
  })),
});
