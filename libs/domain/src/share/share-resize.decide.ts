import { invalid } from '../shared/domain-error.js';
import { refuseIfBusy } from './share-busy.js';
import type { ResizeCommand } from './share-resize.commands.js';
import type { ResizeEvent } from './share-resize.events.js';
import { preferredInstance, type ShareInstanceState, type ActiveShare } from './share.state.js';
import { TRANSITIONAL_STATUSES, type ShareStatus } from './share.types.js';

const SHRINKABLE: readonly ShareStatus[] = ['available', 'shrinking_possible_data_loss_error'];

const claimOpen = (state: ActiveShare, instanceId: string, commandId: string): boolean =>
  state.instances.find((i) => i.id === instanceId)?.pendingOperation?.commandId === commandId;

/** Only an extend still waiting for the scheduler can be confirmed or refused, once. */
const awaitsCapacityCheck = (state: ActiveShare): boolean =>
  state.pendingResize?.direction === 'extend' && state.pendingResize.awaitsCapacityCheck === true;

const extendingInstanceIds = (state: ActiveShare): string[] =>
  state.instances.filter((i) => i.status === 'extending').map((i) => i.id);

/**
 * A replica being created, deleted or promoted would miss the resize (or be resized half-built)
 * and end at another size than the share: the resize waits until every replica has settled.
 */
const unsettledReplica = (state: ActiveShare): ShareInstanceState | undefined =>
  state.instances.find(
    (i) => TRANSITIONAL_STATUSES.has(i.status) || i.status === 'replication_change',
  );

const resizeShare = (
  command: Extract<ResizeCommand, { type: 'ResizeShare' }>,
  state: ActiveShare,
): ResizeEvent[] => {
  const status = preferredInstance(state.instances)?.status;
  const { direction, newSize } = command;
  if (!Number.isSafeInteger(newSize)) {
    throw invalid(`New size for ${direction} must be an integer, not ${String(newSize)}.`);
  }
  if (direction === 'extend') {
    if (status !== 'available') {
      throw invalid(
        `Invalid share: Share ${state.id} status must be 'available' to extend, but current status is: ${String(status)}.`,
      );
    }
    refuseIfBusy(state);
    if (newSize <= state.size) {
      throw invalid(
        `Invalid input received: New size for extend must be greater than current size. (current: ${state.size}, extended: ${newSize}).`,
      );
    }
  } else {
    if (!status || !SHRINKABLE.includes(status)) {
      throw invalid(
        `Invalid share: Share ${state.id} status must in (${SHRINKABLE.join(', ')}) to shrink, but current status is: ${String(status)}.`,
      );
    }
    refuseIfBusy(state);
    if (newSize <= 0 || newSize >= state.size) {
      throw invalid(
        `Invalid input received: New size for shrink must be less than current size and greater than 0 (current: ${state.size}, new: ${newSize}).`,
      );
    }
  }
  const unsettled = unsettledReplica(state);
  if (unsettled) {
    throw invalid(
      `Share ${state.id} has a replica in a transitional state (${unsettled.id} is ${unsettled.status}): ${direction} it once its replicas have settled.`,
    );
  }
  return [
    {
      type: 'ShareResizeRequested',
      data: {
        direction,
        // An instance never placed (its scheduling failed) holds nothing to resize.
        instanceIds: state.instances.filter((i) => i.host !== '').map((i) => i.id),
        newSize,
        ...(direction === 'extend' && command.capacityCheck && { awaitsCapacityCheck: true }),
        requestedAt: command.now,
      },
    },
  ];
};

const confirmShareExtendCapacity = (
  command: Extract<ResizeCommand, { type: 'ConfirmShareExtendCapacity' }>,
  state: ActiveShare,
): ResizeEvent[] => {
  if (!awaitsCapacityCheck(state)) return [];
  return [
    {
      type: 'ShareExtendCapacityConfirmed',
      data: {
        instanceIds: extendingInstanceIds(state),
        host: command.host,
        sizeDeltaGiB: command.sizeDeltaGiB,
        confirmedAt: command.now,
      },
    },
  ];
};

const refuseShareExtend = (
  command: Extract<ResizeCommand, { type: 'RefuseShareExtend' }>,
  state: ActiveShare,
): ResizeEvent[] => {
  if (!awaitsCapacityCheck(state)) return [];
  return [
    {
      type: 'ShareExtendRefused',
      data: {
        instanceIds: extendingInstanceIds(state),
        message: command.message,
        detail: command.detail,
        refusedAt: command.now,
      },
    },
  ];
};

const completeShareInstanceResize = (
  command: Extract<ResizeCommand, { type: 'CompleteShareInstanceResize' }>,
  state: ActiveShare,
): ResizeEvent[] => {
  if (!claimOpen(state, command.instanceId, command.commandId) || !state.pendingResize) {
    return [];
  }
  return [
    {
      type: 'ShareInstanceResized',
      data: {
        instanceId: command.instanceId,
        commandId: command.commandId,
        newSize: state.pendingResize.newSize,
        resizedAt: command.now,
      },
    },
  ];
};

const failShareInstanceResize = (
  command: Extract<ResizeCommand, { type: 'FailShareInstanceResize' }>,
  state: ActiveShare,
): ResizeEvent[] => {
  if (!claimOpen(state, command.instanceId, command.commandId)) return [];
  return [
    {
      type: 'ShareInstanceResizeFailed',
      data: {
        instanceId: command.instanceId,
        commandId: command.commandId,
        message: command.message,
        possibleDataLoss: command.possibleDataLoss,
        failedAt: command.now,
      },
    },
  ];
};

/**
 * Extend and shrink (reference 2.2, 3.4). The quota is counted before, by the API; a non-forced
 * extend then waits for the scheduler's capacity check on the share's pool (reference 6.9).
 */
export const decideResize = (command: ResizeCommand, state: ActiveShare): ResizeEvent[] => {
  switch (command.type) {
    case 'ResizeShare':
      return resizeShare(command, state);
    case 'ConfirmShareExtendCapacity':
      return confirmShareExtendCapacity(command, state);
    case 'RefuseShareExtend':
      return refuseShareExtend(command, state);
    case 'CompleteShareInstanceResize':
      return completeShareInstanceResize(command, state);
    case 'FailShareInstanceResize':
      return failShareInstanceResize(command, state);
  }
};
