import { settlePending } from './share-pending.js';
import type { ReplicatedSnapshotEvent } from './share-replicated-snapshot.events.js';
import type { SnapshotInstanceState } from './share-snapshot.state.js';
import { updateInstances, updateSnapshotInstance } from './share-snapshot.updates.js';
import type { ActiveShare } from './share.state.js';

/** Instances in status `from` take status `to`. */
const moveStatus =
  (from: SnapshotInstanceState['status'], to: SnapshotInstanceState['status'], at: string) =>
  (instances: readonly SnapshotInstanceState[]): SnapshotInstanceState[] =>
    instances.map((i) => (i.status === from ? { ...i, status: to, updatedAt: at } : i));

export const evolveReplicatedSnapshot = (
  state: ActiveShare,
  event: ReplicatedSnapshotEvent,
): ActiveShare => {
  switch (event.type) {
    // Only instances still `creating` take the driver's answer: one refreshed meanwhile, or
    // deleted (forced) meanwhile, keeps what it has.
    case 'ReplicatedSnapshotCreated': {
      const d = event.data;
      const outcomes = new Map(d.instances.map((o) => [o.snapshotInstanceId, o]));
      return updateInstances(
        settlePending(state, d.commandId, d.createdAt),
        d.snapshotId,
        d.createdAt,
        (instances) =>
          instances.map((i) => {
            const outcome = outcomes.get(i.id);
            if (!outcome || i.status !== 'creating') return i;
            return {
              ...i,
              status: outcome.status,
              progress: outcome.progress,
              providerLocation: outcome.providerLocation,
              updatedAt: d.createdAt,
            };
          }),
      );
    }
    case 'ReplicatedSnapshotCreationFailed': {
      const d = event.data;
      return updateInstances(
        settlePending(state, d.commandId, d.failedAt),
        d.snapshotId,
        d.failedAt,
        moveStatus('creating', 'error', d.failedAt),
      );
    }
    case 'ReplicatedSnapshotInstancesDeleted': {
      const d = event.data;
      const gone = new Set(d.snapshotInstanceIds);
      return updateInstances(
        settlePending(state, d.commandId, d.deletedAt),
        d.snapshotId,
        d.deletedAt,
        (instances) => instances.filter((i) => !gone.has(i.id)),
      );
    }
    case 'ReplicatedSnapshotDeletionFailed': {
      const d = event.data;
      return updateInstances(
        settlePending(state, d.commandId, d.failedAt),
        d.snapshotId,
        d.failedAt,
        moveStatus('deleting', 'error_deleting', d.failedAt),
      );
    }
    case 'ReplicaSnapshotRefreshed': {
      const d = event.data;
      return updateSnapshotInstance(
        state,
        d.snapshotId,
        d.snapshotInstanceId,
        d.refreshedAt,
        (i) => ({ ...i, status: d.status, progress: d.progress }),
      );
    }
  }
};
