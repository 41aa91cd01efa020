import { settlePending } from './share-pending.js';
import type { ResizeEvent } from './share-resize.events.js';
import type { ShareInstanceState, ActiveShare } from './share.state.js';
import type { DriverOperation, ShareStatus } from './share.types.js';

const RESIZING: ReadonlySet<ShareStatus> = new Set<ShareStatus>(['extending', 'shrinking']);
const RESIZE_OPERATIONS: ReadonlySet<DriverOperation> = new Set<DriverOperation>([
  'extend_share',
  'shrink_share',
]);

/** Waiting for its resize, or running it (whatever status a reset or deletion gave it since). */
const stillResizing = (instance: ShareInstanceState): boolean =>
  RESIZING.has(instance.status) ||
  (instance.pendingOperation !== null &&
    RESIZE_OPERATIONS.has(instance.pendingOperation.operation));

/**
 * When no instance is resizing any more, the resize is over: the share takes the new size only
 * if no instance failed it, whichever instance finished last.
 */
const finishIfDone = (state: ActiveShare): ActiveShare => {
  if (state.instances.some(stillResizing) || !state.pendingResize) return state;
  return {
    ...state,
    size: state.pendingResize.failed ? state.size : state.pendingResize.newSize,
    pendingResize: null,
  };
};

/** A deletion asked for while the instance was resized goes on after the resize's outcome. */
const unlessDeleting = (instance: ShareInstanceState, status: ShareStatus): ShareStatus =>
  instance.status === 'deleting' ? 'deleting' : status;

/**
 * An admin's reset takes an instance out of a resize no node has started on it yet: the node
 * will not run it any more, so the resize ends without it, as failed (the share keeps its size
 * and an extend's quota is given back).
 */
export const withdrawFromResize = (
  state: ActiveShare,
  instanceId: string,
  previous: ShareStatus,
): ActiveShare => {
  const instance = state.instances.find((i) => i.id === instanceId);
  if (!state.pendingResize || !instance || !RESIZING.has(previous) || stillResizing(instance)) {
    return state;
  }
  return finishIfDone({ ...state, pendingResize: { ...state.pendingResize, failed: true } });
};

export const evolveResize = (state: ActiveShare, event: ResizeEvent): ActiveShare => {
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
          targets.has(i.id)
            ? { ...i, status: unlessDeleting(i, 'available'), updatedAt: d.refusedAt }
            : i,
        ),
      };
    }
    case 'ShareInstanceResized': {
      const d = event.data;
      const settled = settlePending(state, d.commandId, d.resizedAt);
      return finishIfDone({
        ...settled,
        instances: settled.instances.map((i) =>
          i.id === d.instanceId ? { ...i, status: unlessDeleting(i, 'available') } : i,
        ),
      });
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
      return finishIfDone({
        ...settled,
        pendingResize: settled.pendingResize && { ...settled.pendingResize, failed: true },
        instances: settled.instances.map((i) =>
          i.id === d.instanceId ? { ...i, status: unlessDeleting(i, status) } : i,
        ),
      });
    }
  }
};
