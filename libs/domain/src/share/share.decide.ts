import { assertNever, type Decider } from '../shared/decider.js';
import { conflict, forbidden, invalid, notFound } from '../shared/domain-error.js';
import { decideAccess } from './share-access.decide.js';
import { decideAffinity } from './share-affinity.decide.js';
import { validateMetadata, validateShareMetadata } from './share-metadata.js';
import { decidePlacement } from './share-placement.decide.js';
import { decideFromSnapshot, decideSnapshotSourcePlacement } from './share-from-snapshot.decide.js';
import { isReplicaCommand } from './share-replica.commands.js';
import { decideReplica, replicaOperationIsDue } from './share-replica.decide.js';
import { decideResize } from './share-resize.decide.js';
import { decideSnapshot } from './share-snapshot.decide.js';
import type { ShareCommand } from './share.commands.js';
import type { ShareEvent } from './share.events.js';
import {
  evolveShare,
  initialShareState,
  preferredInstance,
  type ShareInstanceState,
  type ShareState,
} from './share.state.js';
import { RESETTABLE_STATUSES, type ShareStatus } from './share.types.js';

const DELETABLE: readonly ShareStatus[] = ['available', 'error', 'inactive'];
export { validateMetadata };

export const instanceOf = (state: ShareState, instanceId: string): ShareInstanceState => {
  const instance = state.instances.find((i) => i.id === instanceId);
  if (!instance) throw notFound(`Share instance ${instanceId} could not be found.`);
  return instance;
};

/**
 * Commands sent by process managers are idempotent by nature: replayed after a crash, they meet
 * a state that already reflects them and decide nothing.
 */
export const decideShare = (command: ShareCommand, state: ShareState): ShareEvent[] => {
  if (command.type === 'RequestShare') {
    if (state.lifecycle !== 'absent') throw conflict(`Share ${command.shareId} exists already.`);
    if (!Number.isInteger(command.size) || command.size < 1) {
      throw invalid(`Share size must be a positive integer, not ${String(command.size)}.`);
    }
    validateShareMetadata(command.metadata);
    const { type: _type, ...data } = command;
    const placement = data.snapshotSource
      ? decideSnapshotSourcePlacement(data, data.snapshotSource)
      : [];
    return [{ type: 'ShareRequested', data }, ...placement];
  }
  if (state.lifecycle !== 'active') throw notFound(`Share ${state.id} could not be found.`);
  if (isReplicaCommand(command)) return decideReplica(command, state);

  switch (command.type) {
    case 'ScheduleShareInstance': {
      const instance = instanceOf(state, command.instanceId);
      if (instance.host !== '' || instance.status !== 'creating') return [];
      return [
        {
          type: 'ShareScheduled',
          data: {
            instanceId: instance.id,
            host: command.host,
            availabilityZone: command.availabilityZone,
            size: state.size,
            scheduledAt: command.now,
          },
        },
      ];
    }
    case 'FailShareInstanceScheduling': {
      const instance = instanceOf(state, command.instanceId);
      if (instance.host !== '' || instance.status !== 'creating') return [];
      return [
        {
          type: 'ShareSchedulingFailed',
          data: {
            instanceId: instance.id,
            message: command.message,
            detail: command.detail,
            failedAt: command.now,
          },
        },
      ];
    }
    case 'StartDriverOperation': {
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
    }
    case 'CompleteShareInstanceCreation': {
      const instance = instanceOf(state, command.instanceId);
      if (instance.pendingOperation?.commandId !== command.commandId) return [];
      return [
        {
          type: 'ShareCreated',
          data: {
            instanceId: instance.id,
            commandId: command.commandId,
            exportLocations: command.exportLocations,
            createdAt: command.now,
          },
        },
      ];
    }
    case 'FailShareInstanceCreation': {
      const instance = instanceOf(state, command.instanceId);
      if (instance.pendingOperation?.commandId !== command.commandId) return [];
      return [
        {
          type: 'ShareCreationFailed',
          data: {
            instanceId: instance.id,
            commandId: command.commandId,
            message: command.message,
            failedAt: command.now,
          },
        },
      ];
    }
    case 'UpdateShare':
      if (
        command.name === undefined &&
        command.description === undefined &&
        command.isPublic === undefined
      ) {
        return [];
      }
      return [
        {
          type: 'ShareUpdated',
          data: {
            ...(command.name !== undefined && { name: command.name }),
            ...(command.description !== undefined && { description: command.description }),
            ...(command.isPublic !== undefined && { isPublic: command.isPublic }),
            updatedAt: command.now,
          },
        },
      ];
    case 'ChangeShareMetadata': {
      validateShareMetadata(command.set);
      const unset = command.unset.filter(
        (key) => Object.hasOwn(state.metadata, key) && !Object.hasOwn(command.set, key),
      );
      if (Object.keys(command.set).length === 0 && unset.length === 0) return [];
      return [
        { type: 'ShareMetadataChanged', data: { set: command.set, unset, updatedAt: command.now } },
      ];
    }
    case 'ResetShareStatus': {
      if (!RESETTABLE_STATUSES.includes(command.status)) {
        throw invalid(`Invalid status provided: ${command.status}.`);
      }
      const instance =
        command.instanceId === undefined
          ? preferredInstance(state.instances)
          : state.instances.find((i) => i.id === command.instanceId);
      if (!instance && command.instanceId !== undefined) {
        throw notFound(`Share instance ${command.instanceId} could not be found.`);
      }
      if (!instance) throw invalid(`Share ${state.id} has no instance.`);
      return [
        {
          type: 'ShareStatusReset',
          data: { instanceId: instance.id, status: command.status, resetAt: command.now },
        },
      ];
    }
    case 'DeleteShare': {
      if (state.instances.filter((i) => i.replicaState !== null).length > 1) {
        throw conflict('Share has replicas: delete them first.');
      }
      if (state.snapshots.length > 0) {
        const message = 'Share still has snapshots: delete them first.';
        throw command.force ? invalid(message) : forbidden(message);
      }
      if (!command.force) {
        const blocking = state.instances.find((i) => !DELETABLE.includes(i.status));
        if (blocking) {
          throw forbidden(
            `Share status must be one of ${DELETABLE.join(', ')}, not ${blocking.status}.`,
          );
        }
      }
      const ids = state.instances.map((i) => i.id);
      const events: ShareEvent[] = [
        {
          type: 'ShareDeletionRequested',
          data: { instanceIds: ids, force: command.force, requestedAt: command.now },
        },
      ];
      // An instance that never reached a node has nothing to delete on a back end.
      const hostless = state.instances.filter((i) => i.host === '');
      for (const instance of hostless) {
        events.push({
          type: 'ShareInstanceDeleted',
          data: { instanceId: instance.id, commandId: null, deletedAt: command.now },
        });
      }
      if (hostless.length === state.instances.length) {
        events.push({ type: 'ShareDeleted', data: { shareId: state.id, deletedAt: command.now } });
      }
      return events;
    }
    case 'CompleteShareInstanceDeletion': {
      const instance = state.instances.find((i) => i.id === command.instanceId);
      if (!instance || instance.pendingOperation?.commandId !== command.commandId) return [];
      const events: ShareEvent[] = [
        {
          type: 'ShareInstanceDeleted',
          data: { instanceId: instance.id, commandId: command.commandId, deletedAt: command.now },
        },
      ];
      if (state.instances.length === 1) {
        events.push({ type: 'ShareDeleted', data: { shareId: state.id, deletedAt: command.now } });
      }
      return events;
    }
    case 'FailShareInstanceDeletion': {
      const instance = instanceOf(state, command.instanceId);
      if (instance.pendingOperation?.commandId !== command.commandId) return [];
      return [
        {
          type: 'ShareDeletionFailed',
          data: {
            instanceId: instance.id,
            commandId: command.commandId,
            message: command.message,
            failedAt: command.now,
          },
        },
      ];
    }
    case 'RequestSnapshot':
    case 'CompleteSnapshotInstanceCreation':
    case 'FailSnapshotInstanceCreation':
    case 'UpdateSnapshot':
    case 'ChangeSnapshotMetadata':
    case 'ResetSnapshotStatus':
    case 'DeleteSnapshot':
    case 'CompleteSnapshotInstanceDeletion':
    case 'FailSnapshotInstanceDeletion':
    case 'CompleteReplicatedSnapshotCreation':
    case 'FailReplicatedSnapshotCreation':
    case 'CompleteReplicatedSnapshotDeletion':
    case 'FailReplicatedSnapshotDeletion':
    case 'RefreshReplicaSnapshot':
      return decideSnapshot(command, state);
    case 'AllowAccess':
    case 'ChangeAccessRuleMetadata':
    case 'DenyAccess':
    case 'CompleteAccessUpdate':
    case 'FailAccessUpdate':
      return decideAccess(command, state);
    case 'ResizeShare':
    case 'ConfirmShareExtendCapacity':
    case 'RefuseShareExtend':
    case 'CompleteShareInstanceResize':
    case 'FailShareInstanceResize':
      return decideResize(command, state);
    case 'RejectSharePlacement':
    case 'RejectReplicaPlacement':
      return decidePlacement(command, state);
    case 'RecordShareCreationDeferred':
    case 'RecordShareStatusPoll':
      return decideFromSnapshot(command, state);
    case 'LinkAffinity':
    case 'UnlinkAffinity':
      return decideAffinity(command, state);
    default:
      return assertNever(command);
  }
};

/** Whether the operation a node wants to claim is still wanted by the share's state. */
const operationIsDue = (
  state: ShareState,
  instance: ShareInstanceState,
  command: Extract<ShareCommand, { type: 'StartDriverOperation' }>,
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
    case 'update_access':
      return state.accessRules.some((rule) => {
        const mapping = rule.instances[instance.id];
        return mapping === 'queued_to_apply' || mapping === 'queued_to_deny';
      });
    case 'create_replica':
    case 'delete_replica':
    case 'promote_replica':
      return replicaOperationIsDue(instance, command.operation);
    default:
      return assertNever(command.operation);
  }
};

export const shareDecider: Decider<ShareState, ShareCommand, ShareEvent> = {
  initialState: initialShareState,
  evolve: evolveShare,
  decide: decideShare,
};
