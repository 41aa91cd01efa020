import type { PlacementCommand } from './share-placement.commands.js';
import type { PlacementEvent } from './share-placement.events.js';
import { attemptedHostsOf, type ShareInstanceState, type ActiveShare } from './share.state.js';

/**
 * The pools that refused the instance, `host` included, while the placement still stands: the
 * instance is creating on that pool and no driver operation has been claimed on it. Anything
 * else (a replay, a deletion meanwhile) hands nothing back.
 */
const refusedBy = (instance: ShareInstanceState | undefined, host: string): string[] | null => {
  if (
    !instance ||
    instance.host !== host ||
    instance.status !== 'creating' ||
    instance.pendingOperation
  ) {
    return null;
  }
  return [...attemptedHostsOf(instance), host];
};

const rejectSharePlacement = (
  command: Extract<PlacementCommand, { type: 'RejectSharePlacement' }>,
  state: ActiveShare,
): PlacementEvent[] => {
  const instance = state.instances.find((i) => i.id === command.instanceId);
  const attemptedHosts = refusedBy(instance, command.host);
  if (!instance || !attemptedHosts) return [];
  return [
    {
      type: 'SharePlacementRejected',
      data: {
        instanceId: instance.id,
        host: command.host,
        message: command.message,
        attemptedHosts,
        rejectedAt: command.now,
      },
    },
  ];
};

const rejectReplicaPlacement = (
  command: Extract<PlacementCommand, { type: 'RejectReplicaPlacement' }>,
  state: ActiveShare,
): PlacementEvent[] => {
  const replica = state.instances.find((i) => i.id === command.replicaId);
  const attemptedHosts = refusedBy(replica, command.host);
  if (!replica || !attemptedHosts) return [];
  return [
    {
      type: 'ReplicaPlacementRejected',
      data: {
        replicaId: replica.id,
        host: command.host,
        message: command.message,
        attemptedHosts,
        rejectedAt: command.now,
      },
    },
  ];
};

/** A node hands back a share or a replica its pool can no longer hold. */
export const decidePlacement = (
  command: PlacementCommand,
  state: ActiveShare,
): PlacementEvent[] => {
  switch (command.type) {
    case 'RejectSharePlacement':
      return rejectSharePlacement(command, state);
    case 'RejectReplicaPlacement':
      return rejectReplicaPlacement(command, state);
  }
};
