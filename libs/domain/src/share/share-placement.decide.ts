import type { PlacementCommand } from './share-placement.commands.js';
import type { PlacementEvent } from './share-placement.events.js';
import { attemptedHostsOf, type ShareState } from './share.state.js';

/**
 * A node may hand back a placement only while it still stands: the instance is creating on
 * that pool and no driver operation has been claimed on it. Anything else (a replay, a
 * deletion meanwhile) decides nothing.
 */
export const decidePlacement = (command: PlacementCommand, state: ShareState): PlacementEvent[] => {
  const instance = state.instances.find((i) => i.id === command.instanceId);
  if (
    !instance ||
    instance.host !== command.host ||
    instance.status !== 'creating' ||
    instance.pendingOperation
  ) {
    return [];
  }
  return [
    {
      type: 'SharePlacementRejected',
      data: {
        instanceId: instance.id,
        host: command.host,
        message: command.message,
        attemptedHosts: [...attemptedHostsOf(instance), command.host],
        rejectedAt: command.now,
      },
    },
  ];
};
