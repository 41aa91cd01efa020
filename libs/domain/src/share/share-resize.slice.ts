import type { ResizeCommand } from './share-resize.commands.js';
import { decideResize } from './share-resize.decide.js';
import type { ResizeEvent } from './share-resize.events.js';
import { evolveResize } from './share-resize.evolve.js';
import { activeShareSlice } from './share.slice.js';

/** Extend and shrink: the scheduler confirms an extend's capacity, each instance's node resizes it. */
export const resizeSlice = activeShareSlice<ResizeCommand, ResizeEvent>({
  commandTypes: [
    'ResizeShare',
    'ConfirmShareExtendCapacity',
    'RefuseShareExtend',
    'CompleteShareInstanceResize',
    'FailShareInstanceResize',
  ],
  eventTypes: [
    'ShareResizeRequested',
    'ShareExtendCapacityConfirmed',
    'ShareExtendRefused',
    'ShareInstanceResized',
    'ShareInstanceResizeFailed',
  ],
  decide: decideResize,
  evolve: evolveResize,
});
