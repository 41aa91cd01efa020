import type { PlacementEvent } from './share-placement.events.js';
import type { ShareState } from './share.state.js';

/** A rejected instance is unplaced again, in the zone the user asked for, remembering its tries. */
export const evolvePlacement = (state: ShareState, event: PlacementEvent): ShareState => {
  const d = event.data;
  return {
    ...state,
    instances: state.instances.map((i) =>
      i.id === d.instanceId
        ? {
            ...i,
            host: '',
            availabilityZone: state.requestedAvailabilityZone,
            attemptedHosts: d.attemptedHosts,
            updatedAt: d.rejectedAt,
          }
        : i,
    ),
  };
};
