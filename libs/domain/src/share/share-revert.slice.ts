import type { RevertCommand } from './share-revert.commands.js';
import { decideRevert } from './share-revert.decide.js';
import type { RevertEvent } from './share-revert.events.js';
import { evolveRevert } from './share-revert.evolve.js';
import { activeShareSlice } from './share.slice.js';

/** Revert to the latest snapshot (2.27): the node of the share's instance restores its data. */
export const revertSlice = activeShareSlice<RevertCommand, RevertEvent>({
  commandTypes: ['RevertShareToSnapshot', 'CompleteShareRevert', 'FailShareRevert'],
  eventTypes: ['ShareRevertRequested', 'ShareReverted', 'ShareRevertFailed'],
  decide: decideRevert,
  evolve: evolveRevert,
});
