import { assertNever } from '../shared/decider.js';
import { conflict } from '../shared/domain-error.js';
import { evolveAccess } from './share-access.evolve.js';
import { updateInstance } from './share-instance.updates.js';
import { migrationStartIsDue } from './share-migration.decide.js';
import { replicaOperationIsDue } from './share-replica.decide.js';
import type { ShareCommandOf } from './share.commands.js';
import type { ShareDriverOperationStarted, ShareEvent } from './share.events.js';
import { activeShareSlice } from './share.slice.js';
import { instanceOf, type ActiveShare, type ShareInstanceState } from './share.state.js';

type StartDriverOperation = ShareCommandOf<'StartDriverOperation'>;

/** Whether the operation a node wants to claim is still wanted by the share's state. */
const operationIsDue = (
  state: ActiveShare,
  instance: ShareInstanceState,
  command: StartDriverOperation,
): boolean => {
  switch (command.operation) {
    case 'create_share':
    case 'create_share_from_snapshot':
      return instance.status === 'creating';
    case 'delete_share':
      return instance.status === 'deleting';
    case 'extend_share':
      return instance.status === 'extending' && !state.pendingResize?.awaitsCapacityCheck;
    case 'shrink_share':
      return instance.status === 'shrinking';
    case 'create_snapshot':
    case 'delete_snapshot':
    case 'create_replicated_snapshot':
    case 'delete_replicated_snapshot': {
      const snapshotInstance = state.snapshots
        .find((s) => s.id === command.snapshotId)
        ?.instances.find((i) => i.id === command.snapshotInstanceId);
      if (snapshotInstance?.shareInstanceId !== instance.id) return false;
      const creates =
        command.operation === 'create_snapshot' ||
        command.operation === 'create_replicated_snapshot';
      const wanted = creates ? 'creating' : 'deleting';
      return snapshotInstance.status === wanted;
    }
    case 'revert_to_snapshot': {
      const snapshotInstance = state.snapshots
        .find((s) => s.id === command.snapshotId)
        ?.instances.find((i) => i.id === command.snapshotInstanceId);
      return (
        instance.status === 'reverting' &&
        snapshotInstance?.status === 'restoring' &&
        snapshotInstance.shareInstanceId === instance.id
      );
    }
    case 'manage_share':
      return instance.status === 'manage_starting';
    case 'manage_snapshot':
    case 'unmanage_snapshot': {
      const snapshotInstance = state.snapshots
        .find((s) => s.id === command.snapshotId)
        ?.instances.find((i) => i.id === command.snapshotInstanceId);
      const wanted =
        command.operation === 'manage_snapshot' ? 'manage_starting' : 'unmanage_starting';
      return (
        snapshotInstance?.shareInstanceId === instance.id && snapshotInstance.status === wanted
      );
    }
    case 'unmanage_share':
      return instance.status === 'unmanage_starting';
    case 'update_snapshot_access': {
      const snapshot = state.snapshots.find((s) => s.id === command.snapshotId);
      const onInstance = snapshot?.instances.some(
        (i) => i.id === command.snapshotInstanceId && i.shareInstanceId === instance.id,
      );
      return (
        Boolean(onInstance) &&
        (snapshot?.accessRules ?? []).some((r) => r.state.startsWith('queued'))
      );
    }
    case 'update_access':
      return state.accessRules.some((rule) => {
        const mapping = rule.instances[instance.id];
        return mapping === 'queued_to_apply' || mapping === 'queued_to_deny';
      });
    case 'create_replica':
    case 'delete_replica':
    case 'promote_replica':
      return replicaOperationIsDue(instance, command.operation);
    case 'migration_start':
      return migrationStartIsDue(state, instance);
    default:
      return assertNever(command.operation);
  }
};

/** A node claims an operation on an instance; one at a time, and only while it is wanted. */
export const startDriverOperation = (
  command: StartDriverOperation,
  state: ActiveShare,
): ShareEvent[] => {
  const instance = instanceOf(state, command.instanceId);
  if (instance.pendingOperation?.commandId === command.commandId) return [];
  if (instance.pendingOperation) {
    throw conflict(
      `Share instance ${instance.id} is busy with ${instance.pendingOperation.operation}.`,
    );
  }
  if (!operationIsDue(state, instance, command)) return [];
  return [
    {
      type: 'ShareDriverOperationStarted',
      data: {
        instanceId: instance.id,
        operation: command.operation,
        commandId: command.commandId,
        host: command.host,
        ...(command.snapshotInstanceId !== undefined && {
          snapshotId: command.snapshotId,
          snapshotInstanceId: command.snapshotInstanceId,
        }),
        startedAt: command.now,
      },
    },
  ];
};

/** The claim marks the instance busy; an access update also puts its queued rules in flight. */
export const driverOperationStarted = (
  state: ActiveShare,
  event: ShareDriverOperationStarted,
): ActiveShare => {
  const d = event.data;
  const claimed = updateInstance(state, d.instanceId, (i) => ({
    ...i,
    pendingOperation: {
      operation: d.operation,
      commandId: d.commandId,
      ...(d.snapshotInstanceId !== undefined && {
        snapshotId: d.snapshotId,
        snapshotInstanceId: d.snapshotInstanceId,
      }),
    },
    updatedAt: d.startedAt,
  }));
  return d.operation === 'update_access' ? evolveAccess(claimed, event) : claimed;
};

/** The claim a share node records before it calls its driver, whatever the operation. */
export const driverOperationSlice = activeShareSlice<
  StartDriverOperation,
  ShareDriverOperationStarted
>({
  commandTypes: ['StartDriverOperation'],
  eventTypes: ['ShareDriverOperationStarted'],
  decide: startDriverOperation,
  evolve: driverOperationStarted,
});
