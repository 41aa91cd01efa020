import type { PlacementEvent } from './share-placement.events.js';
import type { ShareInstanceState, ActiveShare } from './share.state.js';

const unplaced = (
  state: ActiveShare,
  instanceId: string,
  availabilityZone: (instance: ShareInstanceState) => string | null,
  attemptedHosts: readonly string[],
  at: string,
): ActiveShare => ({
  ...state,
  instances: state.instances.map((i) =>
    i.id === instanceId
      ? { ...i, host: '', availabilityZone: availabilityZone(i), attemptedHosts, updatedAt: at }
      : i,
  ),
});

/**
 * A refused instance is unplaced again, in the zone the user asked for (the share's, or the
 * replica's own), remembering its tries.
 */
export const evolvePlacement = (state: ActiveShare, event: PlacementEvent): ActiveShare => {
  switch (event.type) {
    case 'SharePlacementRejected': {
      const d = event.data;
      const zone = () => state.requestedAvailabilityZone;
      return unplaced(state, d.instanceId, zone, d.attemptedHosts, d.rejectedAt);
    }
    case 'ReplicaPlacementRejected': {
      const d = event.data;
      const zone = (replica: ShareInstanceState) =>
        replica.replicaRequest?.availabilityZone ?? null;
      return unplaced(state, d.replicaId, zone, d.attemptedHosts, d.rejectedAt);
    }
  }
};
