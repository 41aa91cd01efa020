import type { Decider } from '../shared/decider.js';
import type { ShareCommand } from './share.commands.js';
import type { ShareEvent } from './share.events.js';
import { evolveShare } from './share.evolve.js';
import { refuseInRecycleBin } from './share-recycle-bin.slice.js';
import { shareTable } from './share.slices.js';
import { initialShareState, type ShareState } from './share.state.js';

/**
 * Decides a command through the slice that owns its type. Commands sent by process managers are
 * idempotent by nature: replayed after a crash, they meet a state that already reflects them and
 * decide nothing.
 */
export const decideShare = (command: ShareCommand, state: ShareState): ShareEvent[] => {
  refuseInRecycleBin(command, state);
  return shareTable.decide(command, state);
};

export const shareDecider: Decider<ShareState, ShareCommand, ShareEvent> = {
  initialState: initialShareState,
  evolve: evolveShare,
  decide: decideShare,
};
