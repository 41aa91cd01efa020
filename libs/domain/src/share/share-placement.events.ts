import type { DomainEvent } from '../shared/decider.js';

/**
 * The share node refused a placement its pool can no longer hold (another scheduler filled it
 * first). The instance goes back to the scheduler, which tries again without the pools listed
 * (Manila's retry.hosts).
 */
export type SharePlacementRejected = DomainEvent<
  'SharePlacementRejected',
  {
    instanceId: string;
    host: string;
    /** Why, for operators: the node's free space and reservations against the share's size. */
    message: string;
    /** Every pool that refused this instance so far, this one included. */
    attemptedHosts: string[];
    rejectedAt: string;
  }
>;

export type PlacementEvent = SharePlacementRejected;
