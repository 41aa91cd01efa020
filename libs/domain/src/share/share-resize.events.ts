import type { DomainEvent } from '../shared/decider.js';

/** Extend or shrink was asked for: the instances are `extending`/`shrinking`. */
export type ShareResizeRequested = DomainEvent<
  'ShareResizeRequested',
  {
    direction: 'extend' | 'shrink';
    instanceIds: string[];
    newSize: number;
    /**
     * A non-forced extend: no node extends until the scheduler confirms the pool has room
     * (reference 6.9). Absent in events written before, which meant no check.
     */
    awaitsCapacityCheck?: true;
    requestedAt: string;
  }
>;

/** The scheduler found room on the share's pool: the delta is consumed and the node extends. */
export type ShareExtendCapacityConfirmed = DomainEvent<
  'ShareExtendCapacityConfirmed',
  { instanceIds: string[]; host: string; sizeDeltaGiB: number; confirmedAt: string }
>;

/**
 * The scheduler found no room on the share's pool (NoValidHost): the instances are `available`
 * again with the old size. `detail.userMessage` is the user message (action 008, extend).
 */
export type ShareExtendRefused = DomainEvent<
  'ShareExtendRefused',
  {
    instanceIds: string[];
    message: string;
    detail: Record<string, unknown>;
    refusedAt: string;
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

export type ResizeEvent =
  | ShareResizeRequested
  | ShareExtendCapacityConfirmed
  | ShareExtendRefused
  | ShareInstanceResized
  | ShareInstanceResizeFailed;
