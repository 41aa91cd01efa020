import { settlePending } from './share-pending.js';
import type { ResizeEvent } from './share-resize.events.js';
import type { ShareState } from './share.state.js';
import type { ShareStatus } from './share.types.js';

const RESIZING: ReadonlySet<ShareStatus> = new Set<ShareStatus>(['extending', 'shrinking']);

/** When no instance is resizing any more, the resize is over. */
const finishIfDone = (state: ShareState, resized: boolean): ShareState => {
  if (state.instances.some((i) => RESIZING.has(i.status)) || !state.pendingResize) return state;
  return {
    ...state,
    size: resized ? state.pendingResize.newSize : state.size,
    pendingResize: null,
  };
};

export const evolveResize = (state: ShareState, event: ResizeEvent): ShareState => {
  switch (event.type) {
    case 'ShareResizeRequested': {
      const d = event.data;
      const targets = new Set(d.instanceIds);
      const status: ShareStatus = d.direction === 'extend' ? 'extending' : 'shrinking';
      return {
        ...state,
        pendingResize: {
          direction: d.direction,
          newSize: d.newSize,
          ...(d.awaitsCapacityCheck && { awaitsCapacityCheck: true }),
        },
        instances: state.instances.map((i) =>
          targets.has(i.id) ? { ...i, status, updatedAt: d.requestedAt } : i,
        ),
      };
    }
    case 'ShareExtendCapacityConfirmed':
      return state.pendingResize
        ? {
            ...state,
            pendingResize: {
              direction: state.pendingResize.direction,
              newSize: state.pendingResize.newSize,
            },
          }
        : state;
    case 'ShareExtendRefused': {
      const d = event.data;
      const targets = new Set(d.instanceIds);
      return {
        ...state,
        pendingResize: null,
        instances: state.instances.map((i) =>
          targets.has(i.id) ? { ...i, status: 'available', updatedAt: d.refusedAt } : i,
        ),
      };
    }
    case 'ShareInstanceResized': {
      const d = event.data;
      const settled = settlePending(state, d.commandId, d.resizedAt);
      return finishIfDone(
        {
          ...settled,
          instances: settled.instances.map((i) =>
            i.id === d.instanceId ? { ...i, status: 'available' } : i,
          ),
        },
        true,
      );
    }
    case 'ShareInstanceResizeFailed': {
      const d = event.data;
      const settled = settlePending(state, d.commandId, d.failedAt);
      const status: ShareStatus =
        state.pendingResize?.direction === 'extend'
          ? 'extending_error'
          : d.possibleDataLoss
            ? 'available'
            : 'shrinking_error';
      return finishIfDone(
        {
          ...settled,
          instances: settled.instances.map((i) => (i.id === d.instanceId ? { ...i, status } : i)),
        },
        false,
      );
    }
  }
};
