import { derivedId, SHARE_STREAM_PREFIX, snapshotsOf } from '#hawser/domain';
import type { RecordedEvent } from '#hawser/eventstore';
import type { ProcessManager } from '#hawser/process-managers';
import type { PlacementAdmission } from './placement-admission.js';
import type { ShareDriverOperations } from './share-driver-operations.js';
import { shareEvents } from '../../../../eventstore/decoders.js';

/**
 * A share node's reactions to the log: a share scheduled onto one of its pools is created if
 * the pool still has room (else handed back to the scheduler), a deletion of one of its
 * instances is carried out, and snapshot, access and resize requests are run on the instances
 * it holds (operations on others' instances claim nothing here); a snapshot of a share with
 * replicas is created and deleted whole by the node of its active replica. A non-forced extend
 * runs once the scheduler has confirmed the pool's capacity. A revert, a manage and an
 * unmanage (of a share or of a snapshot) run on the instance they name.
 * Command ids derive from the causing event, so a replay after a crash claims nothing twice.
 */
export const shareNodeOperationsProcessManager = (
  nodeName: string,
  operations: ShareDriverOperations,
  admission: PlacementAdmission,
): ProcessManager => ({
  name: `share-node:${nodeName}`,
  streamsApart: true,
  filter: {
    streamPrefixes: [SHARE_STREAM_PREFIX],
    eventTypes: [
      'ShareScheduled',
      'ShareDeletionRequested',
      'SnapshotRequested',
      'SnapshotDeletionRequested',
      'ShareAccessAllowed',
      'ShareAccessDenied',
      'ShareResizeRequested',
      'ShareExtendCapacityConfirmed',
      'ShareRevertRequested',
      'ShareManageRequested',
      'ShareUnmanageRequested',
      'SnapshotManageRequested',
      'SnapshotUnmanageRequested',
      'SnapshotAccessAllowed',
      'SnapshotAccessDenied',
    ],
  },
  async handle(recorded: RecordedEvent): Promise<void> {
    const event = shareEvents.decode(recorded);
    const shareId = event.streamId.slice(SHARE_STREAM_PREFIX.length);
    const commandId = (purpose: string) => derivedId(event.id, purpose);
    switch (event.type) {
      case 'ShareScheduled': {
        const data = event.data;
        if (!operations.driverFor(data.host)) return;
        if (!(await admission.admit(shareId, data, event.id))) return;
        try {
          await operations.create(shareId, data.instanceId, commandId('create_share'), event.id);
        } finally {
          admission.settle(data.instanceId);
        }
        return;
      }
      case 'ShareDeletionRequested': {
        const data = event.data;
        for (const instanceId of data.instanceIds) {
          await operations.remove(
            shareId,
            instanceId,
            commandId(`delete_share:${instanceId}`),
            event.id,
          );
        }
        return;
      }
      case 'SnapshotRequested': {
        const data = event.data;
        if (data.activeInstanceId !== undefined) {
          await runOnActiveReplica(operations, shareId, event.id, 'create_replicated_snapshot', {
            snapshotId: data.snapshotId,
            activeInstanceId: data.activeInstanceId,
            instances: data.instances,
          });
          return;
        }
        for (const instance of data.instances) {
          const target = { snapshotId: data.snapshotId, snapshotInstanceId: instance.id };
          const id = commandId(`create_snapshot:${instance.id}`);
          await operations.createSnapshot(shareId, target, instance.shareInstanceId, id, event.id);
        }
        return;
      }
      case 'SnapshotDeletionRequested': {
        const data = event.data;
        const { state } = await operations.load(shareId);
        const snapshot = snapshotsOf(state).find((s) => s.id === data.snapshotId);
        if (data.activeInstanceId !== undefined) {
          await runOnActiveReplica(operations, shareId, event.id, 'delete_replicated_snapshot', {
            snapshotId: data.snapshotId,
            activeInstanceId: data.activeInstanceId,
            instances: snapshot?.instances ?? [],
          });
          return;
        }
        for (const instance of snapshot?.instances ?? []) {
          if (!data.snapshotInstanceIds.includes(instance.id)) continue;
          const target = { snapshotId: data.snapshotId, snapshotInstanceId: instance.id };
          const id = commandId(`delete_snapshot:${instance.id}`);
          await operations.deleteSnapshot(shareId, target, instance.shareInstanceId, id, event.id);
        }
        return;
      }
      case 'ShareAccessAllowed':
      case 'ShareAccessDenied': {
        const data = event.data;
        for (const instanceId of data.instanceIds) {
          await operations.updateAccess(
            shareId,
            instanceId,
            commandId(`update_access:${instanceId}`),
            event.id,
          );
        }
        return;
      }
      case 'ShareResizeRequested': {
        const data = event.data;
        // A non-forced extend runs once the scheduler confirms the pool has room.
        if (data.awaitsCapacityCheck) return;
        for (const instanceId of data.instanceIds) {
          const id = commandId(`${data.direction}_share:${instanceId}`);
          await operations.resize(shareId, instanceId, data.direction, id, event.id);
        }
        return;
      }
      case 'ShareExtendCapacityConfirmed': {
        const data = event.data;
        for (const instanceId of data.instanceIds) {
          const id = commandId(`extend_share:${instanceId}`);
          await operations.resize(shareId, instanceId, 'extend', id, event.id);
        }
        return;
      }
      case 'ShareManageRequested':
      case 'ShareUnmanageRequested': {
        const operation = event.type === 'ShareManageRequested' ? 'manage_share' : 'unmanage_share';
        const { instanceId } = event.data;
        const id = commandId(`${operation}:${instanceId}`);
        await operations.runManageOperation(shareId, instanceId, operation, id, event.id);
        return;
      }
      case 'SnapshotManageRequested':
      case 'SnapshotUnmanageRequested': {
        const operation =
          event.type === 'SnapshotManageRequested' ? 'manage_snapshot' : 'unmanage_snapshot';
        const { snapshotId, snapshotInstanceId, shareInstanceId } = event.data;
        const target = { snapshotId, snapshotInstanceId };
        const id = commandId(`${operation}:${snapshotInstanceId}`);
        await operations.runSnapshotOperation(
          shareId,
          target,
          shareInstanceId,
          operation,
          id,
          event.id,
        );
        return;
      }
      case 'SnapshotAccessAllowed':
      case 'SnapshotAccessDenied': {
        const { snapshotId, snapshotInstances } = event.data;
        for (const instance of snapshotInstances) {
          const target = { snapshotId, snapshotInstanceId: instance.id };
          const id = commandId(`update_snapshot_access:${instance.id}`);
          await operations.runSnapshotOperation(
            shareId,
            target,
            instance.shareInstanceId,
            'update_snapshot_access',
            id,
            event.id,
          );
        }
        return;
      }
      case 'ShareRevertRequested': {
        const { snapshotId, snapshotInstanceId, instanceId } = event.data;
        const target = { snapshotId, snapshotInstanceId };
        const id = commandId(`revert_to_snapshot:${instanceId}`);
        await operations.revertToSnapshot(shareId, target, instanceId, id, event.id);
        return;
      }
    }
  },
});

/**
 * A snapshot of a share with replicas is created or deleted whole through its instance on the
 * active replica (the claim leaves it to that replica's node); without one there, nothing runs.
 */
async function runOnActiveReplica(
  operations: ShareDriverOperations,
  shareId: string,
  eventId: string,
  operation: 'create_replicated_snapshot' | 'delete_replicated_snapshot',
  snapshot: {
    snapshotId: string;
    activeInstanceId: string;
    instances: readonly { id: string; shareInstanceId: string }[];
  },
): Promise<void> {
  const active = snapshot.instances.find((i) => i.shareInstanceId === snapshot.activeInstanceId);
  if (!active) return;
  await operations.runReplicatedSnapshotOperation(
    shareId,
    { snapshotId: snapshot.snapshotId, snapshotInstanceId: active.id },
    snapshot.activeInstanceId,
    operation,
    derivedId(eventId, operation),
    eventId,
  );
}
