import { conflict, forbidden } from '../shared/domain-error.js';
import { refuseIfBusy } from './share-busy.js';
import { deleteShare } from './share-deletion.slice.js';
import type { ShareCommand, ShareCommandOf } from './share.commands.js';
import type { ShareEvent } from './share.events.js';
import type { ShareRestored, ShareSoftDeleted } from './share-recycle-bin.events.js';
import { activeShareSlice } from './share.slice.js';
import type { ActiveShare, ShareState } from './share.state.js';
import type { ShareStatus } from './share.types.js';

const SOFT_DELETABLE: readonly ShareStatus[] = ['available', 'error', 'inactive'];

export const isInRecycleBin = (state: ShareState): boolean =>
  state.kind === 'active' && Boolean(state.recycleBin);

/**
 * Manila's refusals of a share in the recycle bin (403, api/v1 and api/v2 shares, snapshots,
 * replicas): what a user asks of it, not what nodes report on it.
 */
const REFUSED_IN_RECYCLE_BIN: Partial<Record<ShareCommand['type'], (id: string) => string>> = {
  UpdateShare: (id) => `Share '${id} cannot be updated, since it has been soft deleted.`,
  AllowAccess: (id) => `Cannot allow access for share '${id}' since it has been soft deleted.`,
  DenyAccess: (id) => `Cannot deny access for share '${id}' since it has been soft deleted.`,
  ResetShareStatus: (id) =>
    `status cannot be reset for share '${id}' since it has been soft deleted.`,
  RequestSnapshot: (id) =>
    `Snapshots cannot be created for share '${id}' since it has been soft deleted.`,
  ManageSnapshot: (id) =>
    `Can not manage snapshot for share '${id}' since it has been soft deleted.`,
  RequestReplica: (id) =>
    `Replica cannot be created for share '${id}' since it has been soft deleted.`,
};

/** Refuses (403) what Manila refuses on a share in the recycle bin; lets the rest through. */
export const refuseInRecycleBin = (command: ShareCommand, state: ShareState): void => {
  if (state.kind !== 'active' || !state.recycleBin) return;
  if (command.type === 'ResizeShare') {
    throw forbidden(
      `Cannot ${command.direction} share '${state.id}' since it has been soft deleted.`,
    );
  }
  const message = REFUSED_IN_RECYCLE_BIN[command.type];
  if (message) throw forbidden(message(state.id));
};

/** Manila's share_api.soft_delete: the same conditions as a delete, and never twice. */
export const softDeleteShare = (
  command: ShareCommandOf<'SoftDeleteShare'>,
  state: ActiveShare,
): ShareEvent[] => {
  if (state.recycleBin) throw forbidden('Invalid share: The share has been soft deleted already');
  const blocking = state.instances.find((i) => !SOFT_DELETABLE.includes(i.status));
  if (blocking) {
    // Manila's words, its tuple of statuses as Python prints it.
    const statuses = SOFT_DELETABLE.map((status) => `'${status}'`).join(', ');
    throw forbidden(`Invalid share: Share status must be one of (${statuses})`);
  }
  if (state.instances.filter((i) => i.replicaState !== null).length > 1) {
    throw conflict(
      `Share ${state.id} has replicas. Remove the replicas before soft deleting the share.`,
    );
  }
  if (state.snapshots.length > 0) {
    throw forbidden(
      `Invalid share: Share still has ${state.snapshots.length} dependent snapshots.`,
    );
  }
  refuseIfBusy(state, forbidden);
  return [
    {
      type: 'ShareSoftDeleted',
      data: { scheduledToBeDeletedAt: command.scheduledToBeDeletedAt, softDeletedAt: command.now },
    },
  ];
};

/**
 * Out of the recycle bin; a share not in it is left as it is (Manila answers 200). One whose
 * expiry already started deleting it cannot come back.
 */
export const restoreShare = (
  command: ShareCommandOf<'RestoreShare'>,
  state: ActiveShare,
): ShareEvent[] => {
  if (!state.recycleBin) return [];
  if (state.instances.some((i) => i.status === 'deleting' || i.status === 'error_deleting')) {
    throw forbidden(
      `Share ${state.id} is being deleted or has suffered an error during deletion, cannot be restored.`,
    );
  }
  return [{ type: 'ShareRestored', data: { restoredAt: command.now } }];
};

/**
 * The timer's deletion of a share whose retention has passed. Idempotent: a share restored,
 * not yet due or already being deleted decides nothing. As Manila's delete_expired_share, an
 * earlier failed deletion (error_deleting) is tried again.
 */
export const deleteExpiredShare = (
  command: ShareCommandOf<'DeleteExpiredShare'>,
  state: ActiveShare,
): ShareEvent[] => {
  const bin = state.recycleBin;
  if (!bin || bin.scheduledToBeDeletedAt > command.now) return [];
  if (state.instances.some((i) => i.status === 'deleting')) return [];
  const retried = {
    ...state,
    instances: state.instances.map((i) =>
      i.status === 'error_deleting' ? { ...i, status: 'error' as const } : i,
    ),
  };
  return deleteShare({ type: 'DeleteShare', force: false, now: command.now }, retried);
};

export const shareSoftDeleted = (state: ActiveShare, { data }: ShareSoftDeleted): ActiveShare => ({
  ...state,
  recycleBin: { scheduledToBeDeletedAt: data.scheduledToBeDeletedAt },
});

export const shareRestored = (state: ActiveShare, _event: ShareRestored): ActiveShare => ({
  ...state,
  recycleBin: null,
});

/** The recycle bin (2.69): soft delete, restore, and the deletion once the retention passed. */
export const recycleBinSlice = activeShareSlice<
  ShareCommandOf<'SoftDeleteShare' | 'RestoreShare' | 'DeleteExpiredShare'>,
  ShareSoftDeleted | ShareRestored
>({
  commandTypes: ['SoftDeleteShare', 'RestoreShare', 'DeleteExpiredShare'],
  eventTypes: ['ShareSoftDeleted', 'ShareRestored'],
  decide: (command, state) => {
    switch (command.type) {
      case 'SoftDeleteShare':
        return softDeleteShare(command, state);
      case 'RestoreShare':
        return restoreShare(command, state);
      case 'DeleteExpiredShare':
        return deleteExpiredShare(command, state);
    }
  },
  evolve: (state, event) =>
    event.type === 'ShareSoftDeleted'
      ? shareSoftDeleted(state, event)
      : shareRestored(state, event),
});
