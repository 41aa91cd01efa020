import { invalid, invalidState, notFound } from '../shared/domain-error.js';
import { updateInstance } from './share-instance.updates.js';
import { withdrawFromResize } from './share-resize.evolve.js';
import type { ShareCommandOf } from './share.commands.js';
import type { ShareEvent, ShareStatusReset } from './share.events.js';
import { activeShareSlice } from './share.slice.js';
import { preferredInstance, type ActiveShare } from './share.state.js';
import { RESETTABLE_STATUSES } from './share.types.js';

/** An admin's reset: the named instance, or the one the share shows. */
export const resetShareStatus = (
  command: ShareCommandOf<'ResetShareStatus'>,
  state: ActiveShare,
): ShareEvent[] => {
  if (!RESETTABLE_STATUSES.includes(command.status)) {
    throw invalidState(RESETTABLE_STATUSES);
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
};

/** A reset instance leaves a resize it was part of. */
export const shareStatusReset = (state: ActiveShare, { data }: ShareStatusReset): ActiveShare => {
  const previous = state.instances.find((i) => i.id === data.instanceId)?.status;
  const reset = updateInstance(state, data.instanceId, (i) => ({
    ...i,
    status: data.status,
    updatedAt: data.resetAt,
  }));
  return previous ? withdrawFromResize(reset, data.instanceId, previous) : reset;
};

export const statusSlice = activeShareSlice<ShareCommandOf<'ResetShareStatus'>, ShareStatusReset>({
  commandTypes: ['ResetShareStatus'],
  eventTypes: ['ShareStatusReset'],
  decide: resetShareStatus,
  evolve: shareStatusReset,
});
