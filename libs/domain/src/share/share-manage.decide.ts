import { conflict, forbidden } from '../shared/domain-error.js';
import { refuseIfBusy } from './share-busy.js';
import type { ManageCommand } from './share-manage.commands.js';
import type { ManageEvent } from './share-manage.events.js';
import type { ShareEvent } from './share.events.js';
import {
  activeShareOf,
  preferredInstance,
  type ActiveShare,
  type ShareState,
} from './share.state.js';
import { TRANSITIONAL_STATUSES } from './share.types.js';

type Of<T extends ManageCommand['type']> = Extract<ManageCommand, { type: T }>;

const manageShare = (command: Of<'ManageShare'>, state: ShareState): ManageEvent[] => {
  if (state.kind !== 'absent') throw conflict(`Share ${command.shareId} exists already.`);
  const { type: _type, ...data } = command;
  return [{ type: 'ShareManageRequested', data }];
};

/** The claim `commandId` holds on the instance for `operation`, if still open. */
const claimOpen = (
  state: ActiveShare,
  instanceId: string,
  commandId: string,
  operation: 'manage_share' | 'unmanage_share',
): boolean => {
  const pending = state.instances.find((i) => i.id === instanceId)?.pendingOperation;
  return pending?.commandId === commandId && pending.operation === operation;
};

/** Manila's refusals of `unmanage` (api/v1/share_unmanage.py), in its order. */
const unmanageShare = (command: Of<'UnmanageShare'>, state: ActiveShare): ManageEvent[] => {
  if (state.instances.length > 1) {
    throw conflict(
      `Share ${state.id} has replicas. It cannot be unmanaged until all replicas are removed.`,
    );
  }
  const instance = preferredInstance(state.instances);
  if (!instance || TRANSITIONAL_STATUSES.has(instance.status)) {
    throw forbidden(
      `Share with transitional state can not be unmanaged. Share '${state.id}' is in '${String(instance?.status)}' state.`,
    );
  }
  if (state.snapshots.length > 0) {
    throw forbidden(
      `Share '${state.id}' can not be unmanaged because it has '${state.snapshots.length}' dependent snapshot(s).`,
    );
  }
  refuseIfBusy(state);
  return [
    { type: 'ShareUnmanageRequested', data: { instanceId: instance.id, requestedAt: command.now } },
  ];
};

export const decideManage = (command: ManageCommand, state: ShareState): ShareEvent[] => {
  if (command.type === 'ManageShare') return manageShare(command, state);
  const share = activeShareOf(state);
  switch (command.type) {
    case 'CompleteShareManage':
      if (!claimOpen(share, command.instanceId, command.commandId, 'manage_share')) return [];
      return [
        {
          type: 'ShareManaged',
          data: {
            instanceId: command.instanceId,
            commandId: command.commandId,
            size: command.size,
            exportLocations: command.exportLocations,
            managedAt: command.now,
          },
        },
      ];
    case 'FailShareManage':
      if (!claimOpen(share, command.instanceId, command.commandId, 'manage_share')) return [];
      return [
        {
          type: 'ShareManageFailed',
          data: {
            instanceId: command.instanceId,
            commandId: command.commandId,
            message: command.message,
            failedAt: command.now,
          },
        },
      ];
    case 'UnmanageShare':
      return unmanageShare(command, share);
    case 'CompleteShareUnmanage':
      if (!claimOpen(share, command.instanceId, command.commandId, 'unmanage_share')) return [];
      return [
        {
          type: 'ShareUnmanaged',
          data: {
            instanceId: command.instanceId,
            commandId: command.commandId,
            unmanagedAt: command.now,
          },
        },
        { type: 'ShareDeleted', data: { shareId: share.id, deletedAt: command.now } },
      ];
    case 'FailShareUnmanage':
      if (!claimOpen(share, command.instanceId, command.commandId, 'unmanage_share')) return [];
      return [
        {
          type: 'ShareUnmanageFailed',
          data: {
            instanceId: command.instanceId,
            commandId: command.commandId,
            message: command.message,
            failedAt: command.now,
          },
        },
      ];
  }
};
