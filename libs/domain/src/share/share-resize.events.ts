import type { DomainEvent } from '../shared/decider.js';

/** Extend or shrink was asked for: the instances are `extending`/`shrinking`. */
export type ShareResizeRequested = DomainEvent<
  'ShareResizeRequested',
  {
    direction: 'extend' | 'shrink';
    instanceIds: string[];
    newSize: number;
    requestedAt: string;
  }
>;

/** One instance has the new size; the share's size changes with the last one. */
export type ShareInstanceResized = DomainEvent<
  'ShareInstanceResized',
  { instanceId: string; commandId: string; newSize: number; resizedAt: string }
>;

/**
 * The driver refused: extend -> `extending_error`; shrink -> `available` when data could be
 * lost (reference 2.2), `shrinking_error` otherwise.
 */
export type ShareInstanceResizeFailed = DomainEvent<
  'ShareInstanceResizeFailed',
  {
    instanceId: string;
    commandId: string;
    message: string;
    possibleDataLoss: boolean;
    failedAt: string;
  }
>;

export type ResizeEvent = ShareResizeRequested | ShareInstanceResized | ShareInstanceResizeFailed;
