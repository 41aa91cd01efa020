import {
  derivedId,
  SHARE_STREAM_PREFIX,
  type ReplicaCreated,
  type ShareInstanceState,
  type ShareState,
  type ReplicaDeletionRequested,
  type ReplicaPromotionRequested,
  type ReplicaResyncRequested,
  type ReplicaScheduled,
} from '#hawser/domain';
import type { RecordedEvent } from '#hawser/eventstore';
import type { ProcessManager } from '../runtime/process-manager.js';
import type { PlacementAdmission } from './placement-admission.js';
import type { ShareDriverOperations } from './share-driver-operations.js';

/**
 * Snapshot instances a replica still lacks, because the snapshot was taken while the replica was
 * being built, are taken on it now (what Manila's periodic_share_replica_snapshot_update does).
 * Until then a replica that is in_sync holds its snapshots back from `available`.
 */
export const catchUpReplicaSnapshots = async (
  operations: ShareDriverOperations,
  state: ShareState,
  replica: ShareInstanceState,
  causationId: string,
): Promise<void> => {
  if (replica.replicaState === 'active' || replica.status !== 'available') return;
  if (replica.pendingOperation || !operations.driverFor(replica.host)) return;
  for (const snapshot of state.snapshots) {
    const missing = snapshot.instances.find(
      (i) => i.shareInstanceId === replica.id && i.status === 'creating',
    );
    if (!missing) continue;
    await operations.createSnapshot(
      state.id,
      { snapshotId: snapshot.id, snapshotInstanceId: missing.id },
      replica.id,
      derivedId(missing.id, 'replica-snapshot'),
      causationId,
    );
  }
};

/**
 * A share node's reactions to replica events on the replicas it holds: a replica scheduled onto
 * one of its pools is built if the pool still has room, counting the shares and replicas it
 * accepted that no report shows yet (else handed back to the scheduler), then given the
 * snapshots taken meanwhile; one whose deletion or promotion was asked for is deleted or
 * promoted, and a resync refreshes its state now. Command ids derive from the causing event.
 */
export const replicaNodeOperationsProcessManager = (
  nodeName: string,
  operations: ShareDriverOperations,
  admission: PlacementAdmission,
): ProcessManager => ({
  name: `replica-node:${nodeName}`,
  filter: {
    streamPrefixes: [SHARE_STREAM_PREFIX],
    eventTypes: [
      'ReplicaScheduled',
      'ReplicaCreated',
      'ReplicaDeletionRequested',
      'ReplicaPromotionRequested',
      'ReplicaResyncRequested',
    ],
  },
  async handle(event: RecordedEvent): Promise<void> {
    const shareId = event.streamId.slice(SHARE_STREAM_PREFIX.length);
    const { replicaId } = event.data as (
      | ReplicaScheduled
      | ReplicaCreated
      | ReplicaDeletionRequested
      | ReplicaPromotionRequested
      | ReplicaResyncRequested
    )['data'];
    const run = (operation: 'create_replica' | 'delete_replica' | 'promote_replica') =>
      operations.runReplicaOperation(
        shareId,
        replicaId,
        operation,
        derivedId(event.id, operation),
        event.id,
      );
    switch (event.type) {
      case 'ReplicaScheduled': {
        const data = event.data as ReplicaScheduled['data'];
        if (!operations.driverFor(data.host)) return;
        if (!(await admission.admitReplica(shareId, data, event.id))) return;
        try {
          await run('create_replica');
        } finally {
          admission.settle(replicaId);
        }
        return;
      }
      case 'ReplicaCreated': {
        const { state } = await operations.load(shareId);
        const replica = state.instances.find((i) => i.id === replicaId);
        if (replica) await catchUpReplicaSnapshots(operations, state, replica, event.id);
        return;
      }
      case 'ReplicaDeletionRequested':
        await run('delete_replica');
        return;
      case 'ReplicaPromotionRequested':
        await run('promote_replica');
        return;
      case 'ReplicaResyncRequested': {
        const { state } = await operations.load(shareId);
        const replica = state.instances.find((i) => i.id === replicaId);
        if (replica && operations.driverFor(replica.host)) {
          await operations.replicas.refresh(state, replica, derivedId(event.id, 'resync'));
        }
        return;
      }
    }
  },
});
