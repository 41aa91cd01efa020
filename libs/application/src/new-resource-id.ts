import { timeOrderedId } from './time-ordered-id.js';

/**
 * The id of a resource a request creates (a share and its instance, a snapshot, a replica, an
 * access rule, a share type): a UUID, as Manila's, but of version 7, whose first 48 bits are the
 * time it was made. Resources made one after another then have ids that sort together, so every
 * index keyed by an id (the event log's streams, the read models' primary keys, a listing's
 * tie-break) takes a new one at its end, on a page a commit writes anyway; a random id (version 4)
 * lands on a random page of each, one more page a commit writes, and one more page to read once
 * the store outgrows the page cache.
 */
export const newResourceId = (): string => timeOrderedId();
