import { updateInstance } from './share-instance.updates.js';
import type { ShareCommandOf } from './share.commands.js';
import type {
  ShareCreated,
  ShareCreationFailed,
  ShareEvent,
  ShareScheduled,
  ShareSchedulingFailed,
} from './share.events.js';
import { activeShareSlice } from './share.slice.js';
import { instanceClaimedBy, instanceOf, type ActiveShare } from './share.state.js';

/** Only an instance still waiting for a pool takes one: a replayed placement decides nothing. */
const awaitsPool = (state: ActiveShare, instanceId: string) => {
  const instance = instanceOf(state, instanceId);
  return instance.host === '' && instance.status === 'creating' ? instance : undefined;
};

export const scheduleShareInstance = (
  command: ShareCommandOf<'ScheduleShareInstance'>,
  state: ActiveShare,
): ShareEvent[] => {
  const instance = awaitsPool(state, command.instanceId);
  if (!instance) return [];
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
};

export const failShareInstanceScheduling = (
  command: ShareCommandOf<'FailShareInstanceScheduling'>,
  state: ActiveShare,
): ShareEvent[] => {
  const instance = awaitsPool(state, command.instanceId);
  if (!instance) return [];
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
};

export const completeShareInstanceCreation = (
  command: ShareCommandOf<'CompleteShareInstanceCreation'>,
  state: ActiveShare,
): ShareEvent[] => {
  const instance = instanceClaimedBy(state, command.instanceId, command.commandId);
  if (!instance) return [];
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
};

export const failShareInstanceCreation = (
  command: ShareCommandOf<'FailShareInstanceCreation'>,
  state: ActiveShare,
): ShareEvent[] => {
  const instance = instanceClaimedBy(state, command.instanceId, command.commandId);
  if (!instance) return [];
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
};

export const shareScheduled = (state: ActiveShare, { data }: ShareScheduled): ActiveShare =>
  updateInstance(state, data.instanceId, (i) => ({
    ...i,
    host: data.host,
    availabilityZone: data.availabilityZone,
    updatedAt: data.scheduledAt,
  }));

export const shareSchedulingFailed = (
  state: ActiveShare,
  { data }: ShareSchedulingFailed,
): ActiveShare =>
  updateInstance(state, data.instanceId, (i) => ({
    ...i,
    status: 'error',
    updatedAt: data.failedAt,
  }));

/** An instance force-deleted while its creation ran stays `deleting`: its deletion goes on. */
export const shareCreated = (state: ActiveShare, { data }: ShareCreated): ActiveShare =>
  updateInstance(state, data.instanceId, (i) => ({
    ...i,
    status: i.status === 'deleting' ? 'deleting' : 'available',
    progress: '100%',
    replicaState: state.capabilities?.replicationType ? 'active' : null,
    exportLocations: data.exportLocations,
    pendingOperation: null,
    updatedAt: data.createdAt,
  }));

export const shareCreationFailed = (
  state: ActiveShare,
  { data }: ShareCreationFailed,
): ActiveShare =>
  updateInstance(state, data.instanceId, (i) => ({
    ...i,
    status: i.status === 'deleting' ? 'deleting' : 'error',
    progress: null,
    pendingOperation: null,
    updatedAt: data.failedAt,
  }));

type CreationCommand = ShareCommandOf<
  | 'ScheduleShareInstance'
  | 'FailShareInstanceScheduling'
  | 'CompleteShareInstanceCreation'
  | 'FailShareInstanceCreation'
>;
type CreationEvent = ShareScheduled | ShareSchedulingFailed | ShareCreated | ShareCreationFailed;

/** A share's instance placed by the scheduler, then created by its node's driver. */
export const creationSlice = activeShareSlice<CreationCommand, CreationEvent>({
  commandTypes: [
    'ScheduleShareInstance',
    'FailShareInstanceScheduling',
    'CompleteShareInstanceCreation',
    'FailShareInstanceCreation',
  ],
  eventTypes: ['ShareScheduled', 'ShareSchedulingFailed', 'ShareCreated', 'ShareCreationFailed'],
  decide: (command, state) => {
    switch (command.type) {
      case 'ScheduleShareInstance':
        return scheduleShareInstance(command, state);
      case 'FailShareInstanceScheduling':
        return failShareInstanceScheduling(command, state);
      case 'CompleteShareInstanceCreation':
        return completeShareInstanceCreation(command, state);
      case 'FailShareInstanceCreation':
        return failShareInstanceCreation(command, state);
    }
  },
  evolve: (state, event) => {
    switch (event.type) {
      case 'ShareScheduled':
        return shareScheduled(state, event);
      case 'ShareSchedulingFailed':
        return shareSchedulingFailed(state, event);
      case 'ShareCreated':
        return shareCreated(state, event);
      case 'ShareCreationFailed':
        return shareCreationFailed(state, event);
    }
  },
});
