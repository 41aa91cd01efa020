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
