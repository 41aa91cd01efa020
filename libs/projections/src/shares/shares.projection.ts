import { singleStreamProjection, type SparseIndex } from '#hawser/read-models';
import { ACCESS_RULE_INDEXES, accessRuleItems } from '../access-rules/access-rules.projection.js';
import { SNAPSHOT_INDEXES, snapshotItems } from '../snapshots/snapshots.projection.js';
import { shareInstanceItems } from './share-instances.projection.js';
import {
  SHARE_INSTANCES,
  SHARES,
  shareStateOf,
  toShareRecord,
  type ShareRecord,
} from './share.documents.js';
import { foldShare, shareStream, type ShareStreamEvent } from './share-fold.js';

/** Whether a share is in the recycle bin: every listing filters on it by equality (null: not). */
const IN_RECYCLE_BIN = 'scheduled_to_be_deleted_at';

/**
 * What a listing filters on by equality and then sorts on: a project's shares, in or out of the
 * recycle bin, by the sort keys the API and the console use most, and by status or name then
 * time (those filters). The last two serve the admin's listing across projects and the recycle
 * bin's expiry, and the metrics' counts by status. Other sort keys sort one project's shares in
 * the store (see the README, "Scale").
 */
const SHARE_LISTING_ORDERS: readonly (readonly string[])[] = [
  ['project_id', IN_RECYCLE_BIN, 'created_at'],
  ['project_id', IN_RECYCLE_BIN, 'updated_at'],
  ['project_id', IN_RECYCLE_BIN, 'name'],
  ['project_id', IN_RECYCLE_BIN, 'size'],
  // The status filter in a project, and (its leading field) the metrics' counts by status.
  ['status', 'project_id', IN_RECYCLE_BIN, 'created_at'],
  // Without it, SQLite walks the project by time rather than look the name up (no statistics).
  ['project_id', IN_RECYCLE_BIN, 'name', 'created_at'],
  [IN_RECYCLE_BIN, 'created_at'],
];

/**
 * The listing's indexes: each of its orders, then the id (the tie-breaker) and the record's
 * revision, so a page's first read (its ids and revisions, `findVersions`) is answered from the
 * index alone, without reading a record. It costs a write nothing more: every write of a record
 * changes the document these indexes read, so SQLite rewrites their entries anyway.
 */
export const SHARE_LISTING_INDEXES: readonly (readonly string[])[] = SHARE_LISTING_ORDERS.map(
  (fields) => [...fields, 'id', 'revision'],
);

/**
 * What a listing's `with_count` and the metrics count by, kept as the shares are written (see
 * `DocumentStore.ensureCount`) so that a count costs the same in a project of ten shares and
 * of a hundred thousand: a project's shares in or out of the recycle bin, by status or not,
 * and every share by status.
 */
export const SHARE_COUNTS: readonly (readonly string[])[] = [
  ['project_id', IN_RECYCLE_BIN, 'status'],
  ['status'],
];

/**
 * The share node's periodic reads (instances creating from a snapshot or a migration's
 * destination, every minute; replicas, at each refresh) find the few instances they want on
 * indexes that hold only those, so they cost the same whatever the number of shares. The replica
 * listing, newest first, walks a page of replicas: a project's on its own (only replicas carry
 * the project's id, `toStoredShareInstance`), an admin's on the replicas' creation times.
 */
export const SHARE_INSTANCE_SPARSE_INDEXES: readonly SparseIndex[] = [
  ['transitional_status'],
  ['replica_state'],
  ['pending_operation'],
  ['project_id', 'created_at'],
  { fields: ['created_at'], sparseOn: 'replica_state' },
];

/**
 * Indexes a store written before holds and these no longer need: the two the status index
 * above replaces, the listing's orders without the revision, and the instances' index on their
 * share (read from its record instead).
 */
const RETIRED_INDEXES = {
  [SHARES]: [
    ['project_id', IN_RECYCLE_BIN, 'status', 'created_at'],
    ['status'],
    ...SHARE_LISTING_ORDERS,
  ],
  [SHARE_INSTANCES]: [['share_id', 'created_at']],
};

/**
 * The share listing, as Manila's share API shows it; its record keeps the folded share, from
 * which reads derive the rest, and from which the same projection derives the share's
 * instances, snapshots and access rules: one fold and one stored copy of each share.
 */
export const sharesProjection = singleStreamProjection<ShareRecord, ShareStreamEvent>({
  name: 'shares',
  collection: SHARES,
  // 2: an instance in flight keeps its status apart (`transitional_status`), which the share
  // node's polls find it by; an instance written before would not be found until rewritten.
  version: 2,
  ...shareStream,
  indexes: {
    [SHARES]: SHARE_LISTING_INDEXES,
    ...SNAPSHOT_INDEXES,
    ...ACCESS_RULE_INDEXES,
  },
  sparseIndexes: { [SHARE_INSTANCES]: SHARE_INSTANCE_SPARSE_INDEXES },
  retiredIndexes: RETIRED_INDEXES,
  counts: { [SHARES]: SHARE_COUNTS },
  evolve: (record, event) => {
    const state = foldShare(record && shareStateOf(record), event);
    return state && toShareRecord(state, event.revision);
  },
  derived: [shareInstanceItems, snapshotItems, accessRuleItems],
});
