import { forbidden, conflict, invalid } from '../shared/domain-error.js';
import { withdrawInstanceFromRules } from './share-access.evolve.js';
import { refuseIfBusy } from './share-busy.js';
import { updateInstance } from './share-instance.updates.js';
import type { ShareCommandOf } from './share.commands.js';
import type {
  ShareDeleted,
  ShareDeletionFailed,
  ShareDeletionRequested,
  ShareEvent,
  ShareInstanceDeleted,
} from './share.events.js';
import { activeShareSlice } from './share.slice.js';
import { instanceClaimedBy, type ActiveShare, type DeletedShare } from './share.state.js';
import type { ShareStatus } from './share.types.js';

const DELETABLE: readonly ShareStatus[] = ['available', 'error', 'inactive'];

/**
 * A share with no replicas and no snapshots is deleted instance by instance; an instance that
 * never reached a node has nothing to delete on a back end and goes at once.
 */
export const deleteShare = (
  command: ShareCommandOf<'DeleteShare'>,
  state: ActiveShare,
): ShareEvent[] => {
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
  refuseIfBusy(state);
  const ids = state.instances.map((i) => i.id);
  const events: ShareEvent[] = [
    {
      type: 'ShareDeletionRequested',
      data: { instanceIds: ids, force: command.force, requestedAt: command.now },
    },
  ];
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
};

/** The last instance deleted deletes the share. */
export const completeShareInstanceDeletion = (
  command: ShareCommandOf<'CompleteShareInstanceDeletion'>,
  state: ActiveShare,
): ShareEvent[] => {
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
};

export const failShareInstanceDeletion = (
  command: ShareCommandOf<'FailShareInstanceDeletion'>,
  state: ActiveShare,
): ShareEvent[] => {
  const instance = instanceClaimedBy(state, command.instanceId, command.commandId);
  if (!instance) return [];
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
};

export const shareDeletionRequested = (
  state: ActiveShare,
  { data }: ShareDeletionRequested,
): ActiveShare => {
  const targets = new Set(data.instanceIds);
  return {
    ...state,
    instances: state.instances.map((i) =>
      targets.has(i.id) ? { ...i, status: 'deleting', updatedAt: data.requestedAt } : i,
    ),
  };
};

export const shareInstanceDeleted = (
  state: ActiveShare,
  { data }: ShareInstanceDeleted,
): ActiveShare => ({
  ...state,
  instances: state.instances.filter((i) => i.id !== data.instanceId),
  accessRules: withdrawInstanceFromRules(state.accessRules, data.instanceId, data.deletedAt),
});

export const shareDeletionFailed = (
  state: ActiveShare,
  { data }: ShareDeletionFailed,
): ActiveShare =>
  updateInstance(state, data.instanceId, (i) => ({
    ...i,
    status: 'error_deleting',
    pendingOperation: null,
    updatedAt: data.failedAt,
  }));

export const shareDeleted = (state: ActiveShare): DeletedShare => ({
  ...state,
  kind: 'deleted',
  instances: [],
});

type DeletionCommand = ShareCommandOf<
  'DeleteShare' | 'CompleteShareInstanceDeletion' | 'FailShareInstanceDeletion'
>;
type DeletionEvent =
  ShareDeletionRequested | ShareInstanceDeleted | ShareDeletionFailed | ShareDeleted;

/** A share's deletion, from the user's request to its last instance gone. */
export const deletionSlice = activeShareSlice<DeletionCommand, DeletionEvent>({
  commandTypes: ['DeleteShare', 'CompleteShareInstanceDeletion', 'FailShareInstanceDeletion'],
  eventTypes: [
    'ShareDeletionRequested',
    'ShareInstanceDeleted',
    'ShareDeletionFailed',
    'ShareDeleted',
  ],
  decide: (command, state) => {
    switch (command.type) {
      case 'DeleteShare':
        return deleteShare(command, state);
      case 'CompleteShareInstanceDeletion':
        return completeShareInstanceDeletion(command, state);
      case 'FailShareInstanceDeletion':
        return failShareInstanceDeletion(command, state);
    }
  },
  evolve: (state, event) => {
    switch (event.type) {
      case 'ShareDeletionRequested':
        return shareDeletionRequested(state, event);
      case 'ShareInstanceDeleted':
        return shareInstanceDeleted(state, event);
      case 'ShareDeletionFailed':
        return shareDeletionFailed(state, event);
      case 'ShareDeleted':
        return shareDeleted(state);
    }
  },
});
