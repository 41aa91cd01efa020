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

/**
 * The same for a replica: its pool's node refused it, so it is unplaced again, still creating,
 * and the scheduler places it without the pools listed.
 */
export type ReplicaPlacementRejected = DomainEvent<
  'ReplicaPlacementRejected',
  {
    replicaId: string;
    host: string;
    /** Why, for operators: the node's free space and reservations against the replica's size. */
    message: string;
    /** Every pool that refused this replica so far, this one included. */
    attemptedHosts: string[];
    rejectedAt: string;
  }
>;

export type PlacementEvent = SharePlacementRejected | ReplicaPlacementRejected;
