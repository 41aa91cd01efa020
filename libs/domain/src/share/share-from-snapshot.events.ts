import type { DomainEvent } from '../shared/decider.js';

/**
 * The driver answered `creating_from_snapshot`: the share is being filled in the background
 * and the node polls it (reference 4.5). The claimed operation is over.
 */
export type ShareCreationDeferred = DomainEvent<
  'ShareCreationDeferred',
  { instanceId: string; commandId: string; progress: string; answeredAt: string }
>;

/** A poll of a share in `creating_from_snapshot` found more of it done ("0%" to "99%"). */
export type ShareCreationProgressed = DomainEvent<
  'ShareCreationProgressed',
  { instanceId: string; progress: string; progressedAt: string }
>;

export type FromSnapshotEvent = ShareCreationDeferred | ShareCreationProgressed;
