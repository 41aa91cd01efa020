import { derivedId, SHARE_STREAM_PREFIX, type ShareEvent, isActiveShare } from '#hawser/domain';
import type { Decoded, RecordedEvent } from '#hawser/eventstore';
import type { ProcessManager } from '#hawser/process-managers';
import type { PlacementAdmission } from './placement-admission.js';
import type { ShareDriverOperations } from './share-driver-operations.js';
import { shareEvents } from '../../../../eventstore/decoders.js';

/**
 * A share node's reactions to replica events on the replicas it holds: a replica scheduled onto
 * one of its pools is built if the pool still has room, counting the shares and replicas it
 * accepted that no report shows yet (else handed back to the scheduler), then the snapshot
 * instances it still lacks are refreshed (taken meanwhile, or not yet available when it was
 * built); one whose deletion or promotion was asked for is deleted or promoted, and a resync
 * refreshes its state now. Command ids derive from the causing event.
 */
export const replicaNodeOperationsProcessManager = (
  nodeName: string,
  operations: ShareDriverOperations,
  admission: PlacementAdmission,
): ProcessManager => ({
  name: `replica-node:${nodeName}`,
  streamsApart: true,
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
  async handle(recorded: RecordedEvent): Promise<void> {
    const event = shareEvents.decode(recorded);
    const shareId = event.streamId.slice(SHARE_STREAM_PREFIX.length);
    const replicaId = replicaOperatedOn(event);
    if (replicaId === undefined) return;
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
        const data = event.data;
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
        if (!isActiveShare(state)) return;
        const replica = state.instances.find((i) => i.id === replicaId);
        if (replica) {
          const id = derivedId(event.id, 'replica-snapshots');
          await operations.replicatedSnapshots.refresh(state, replica, id);
        }
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
        if (!isActiveShare(state)) return;
        const replica = state.instances.find((i) => i.id === replicaId);
        if (replica && operations.driverFor(replica.host)) {
          await operations.replicas.refresh(state, replica, derivedId(event.id, 'resync'));
        }
        return;
      }
    }
  },
});

/** The replica an event of this process manager's filter asks a share node to act on. */
const replicaOperatedOn = (event: Decoded<ShareEvent>): string | undefined => {
  switch (event.type) {
    case 'ReplicaScheduled':
    case 'ReplicaCreated':
    case 'ReplicaDeletionRequested':
    case 'ReplicaPromotionRequested':
    case 'ReplicaResyncRequested':
      return event.data.replicaId;
    default:
      return undefined;
  }
};
