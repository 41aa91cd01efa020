import type { PlacementCommand } from './share-placement.commands.js';
import { decidePlacement } from './share-placement.decide.js';
import type { PlacementEvent } from './share-placement.events.js';
import { evolvePlacement } from './share-placement.evolve.js';
import { activeShareSlice } from './share.slice.js';

/** An instance a node handed back: placed again elsewhere, or failed. */
export const placementSlice = activeShareSlice<PlacementCommand, PlacementEvent>({
  commandTypes: ['RejectSharePlacement', 'RejectReplicaPlacement'],
  eventTypes: ['SharePlacementRejected', 'ReplicaPlacementRejected'],
  decide: decidePlacement,
  evolve: evolvePlacement,
});
