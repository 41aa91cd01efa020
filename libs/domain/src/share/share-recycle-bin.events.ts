import type { DomainEvent } from '../shared/decider.js';

/** The share went to the recycle bin (2.69): it is deleted at `scheduledToBeDeletedAt`. */
export type ShareSoftDeleted = DomainEvent<
  'ShareSoftDeleted',
  { scheduledToBeDeletedAt: string; softDeletedAt: string }
>;

/** The share came back out of the recycle bin. */
export type ShareRestored = DomainEvent<'ShareRestored', { restoredAt: string }>;

export type RecycleBinEvent = ShareSoftDeleted | ShareRestored;
