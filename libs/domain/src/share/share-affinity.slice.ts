import type { AffinityCommand } from './share-affinity.commands.js';
import { decideAffinity } from './share-affinity.decide.js';
import { activeShareSlice } from './share.slice.js';

/**
 * Affinity hints between shares, kept in the share's metadata: its commands decide metadata
 * changes, which the metadata slice folds, so it folds no event of its own.
 */
export const affinitySlice = activeShareSlice<AffinityCommand, never>({
  commandTypes: ['LinkAffinity', 'UnlinkAffinity'],
  eventTypes: [],
  decide: decideAffinity,
  evolve: (state) => state,
});
