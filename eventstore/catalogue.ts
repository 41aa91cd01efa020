import type {
  BackendEvent,
  QuotaEvent,
  ShareEvent,
  ShareTypeEvent,
  UserMessageEvent,
} from '#hawser/domain';
import { UpcasterRegistry } from '#hawser/eventstore';
import { MIGRATION_EVENT_CATALOGUE } from './migration-catalogue.js';
import { REPLICA_EVENT_CATALOGUE } from './replica-catalogue.js';
import { snapshotDeletedV2 } from './upcasters/snapshot-deleted.upcaster.js';

/**
 * The event catalogue: every event Hawser writes, the stream category it lives in, the version
 * new events are written with, and what it means. The record is typed by the domain's event
 * unions, so an event type added to the domain without a catalogue entry does not compile.
 */
export type HawserEventType =
  | ShareEvent['type']
  | ShareTypeEvent['type']
  | BackendEvent['type']
  | QuotaEvent['type']
  | UserMessageEvent['type'];

/** Each stream category and the domain union its events decode to. */
export interface CategoryEvents {
  share: ShareEvent;
  sharetype: ShareTypeEvent;
  backend: BackendEvent;
  quota: QuotaEvent;
  message: UserMessageEvent;
}

export type EventCategory = keyof CategoryEvents;

export interface CatalogueEntry {
  readonly category: EventCategory;
  readonly version: number;
  readonly meaning: string;
}

/** The entries of one category: every type of its union, each naming that category. */
type CategoryEntries<C extends EventCategory> = {
  readonly [T in CategoryEvents[C]['type']]: CatalogueEntry & { readonly category: C };
};

export const EVENT_CATALOGUE: CategoryEntries<'share'> &
  CategoryEntries<'sharetype'> &
  CategoryEntries<'backend'> &
  CategoryEntries<'quota'> &
  CategoryEntries<'message'> = {
  ShareRequested: {
    category: 'share',
    version: 1,
    meaning:
      'A user asked for a share. A share from a snapshot names its source in snapshotSource ' +
      '(optional field, added compatibly).',
  },
  ShareScheduled: { category: 'share', version: 1, meaning: 'The scheduler chose a pool.' },
  SharePlacementRejected: {
    category: 'share',
    version: 1,
    meaning:
      "The pool's share node refused the placement (no room left); the scheduler tries again.",
  },
  ReplicaPlacementRejected: {
    category: 'share',
    version: 1,
    meaning:
      "The pool's share node refused a replica's placement (no room left); the scheduler " +
      'places the replica again without the pools that refused it.',
  },
  ShareSchedulingFailed: {
    category: 'share',
    version: 1,
    meaning: 'No pool passed the filters; the share is in error with the user message.',
  },
  ShareDriverOperationStarted: {
    category: 'share',
    version: 1,
    meaning:
      'A share node claimed a driver operation; the driver runs only after this. ' +
      'Snapshot operations name their snapshot instance (optional fields, added compatibly).',
  },
  ShareCreated: { category: 'share', version: 1, meaning: 'The driver created the share.' },
  ShareCreationDeferred: {
    category: 'share',
    version: 1,
    meaning: 'The driver creates the share from a snapshot in the background; the node polls it.',
  },
  ShareCreationProgressed: {
    category: 'share',
    version: 1,
    meaning: 'A poll found more of a share being created from a snapshot done (progress).',
  },
  ShareCreationFailed: {
    category: 'share',
    version: 1,
    meaning: 'The driver failed to create it.',
  },
  ShareUpdated: {
    category: 'share',
    version: 1,
    meaning: 'Name, description or visibility changed.',
  },
  ShareMetadataChanged: { category: 'share', version: 1, meaning: 'Metadata keys set or unset.' },
  ShareStatusReset: { category: 'share', version: 1, meaning: 'An admin reset the status.' },
  ShareDeletionRequested: { category: 'share', version: 1, meaning: 'Deletion was asked for.' },
  ShareInstanceDeleted: { category: 'share', version: 1, meaning: 'One instance is gone.' },
  ShareDeletionFailed: {
    category: 'share',
    version: 1,
    meaning: 'The driver failed to delete it.',
  },
  ShareDeleted: { category: 'share', version: 1, meaning: 'The last instance is gone.' },
  SnapshotRequested: {
    category: 'share',
    version: 1,
    meaning:
      'A user asked for a snapshot; one snapshot instance per share instance, creating. A share ' +
      'with replicas names its active replica in activeInstanceId (optional, added compatibly).',
  },
  SnapshotInstanceCreated: {
    category: 'share',
    version: 1,
    meaning: 'The driver took the snapshot on one share instance (status, progress, location).',
  },
  SnapshotInstanceCreationFailed: {
    category: 'share',
    version: 1,
    meaning: 'The driver failed to take the snapshot on one share instance.',
  },
  SnapshotUpdated: { category: 'share', version: 1, meaning: 'Snapshot name or description.' },
  SnapshotStatusReset: {
    category: 'share',
    version: 1,
    meaning: "An admin reset the preferred snapshot instance's status.",
  },
  SnapshotDeletionRequested: {
    category: 'share',
    version: 1,
    meaning:
      'Deletion of a snapshot was asked for (forced or not); its instances are deleting. A ' +
      'share with replicas names its active replica in activeInstanceId (optional, compatibly).',
  },
  SnapshotInstanceDeleted: {
    category: 'share',
    version: 1,
    meaning: 'One snapshot instance is gone.',
  },
  SnapshotInstanceDeletionFailed: {
    category: 'share',
    version: 1,
    meaning: 'The driver failed to delete one snapshot instance (error_deleting).',
  },
  SnapshotDeleted: {
    category: 'share',
    version: 2,
    meaning:
      'The last snapshot instance is gone. v2: projectId names the project whose quota counts ' +
      'the snapshot, null when upcast from a v1 event that did not record it.',
  },
  ReplicatedSnapshotCreated: {
    category: 'share',
    version: 1,
    meaning:
      "The active replica's node took a snapshot of a share with replicas: each instance's status " +
      'as the driver answered (instances left creating are finished by the replica refresh).',
  },
  ReplicatedSnapshotCreationFailed: {
    category: 'share',
    version: 1,
    meaning: 'The driver failed to take a snapshot of a share with replicas: its instances error.',
  },
  ReplicatedSnapshotInstancesDeleted: {
    category: 'share',
    version: 1,
    meaning:
      "The active replica's node deleted a snapshot of a share with replicas: the listed " +
      'instances are gone, others stay deleting until the replica refresh.',
  },
  ReplicatedSnapshotDeletionFailed: {
    category: 'share',
    version: 1,
    meaning: 'The driver failed to delete a snapshot of a share with replicas (error_deleting).',
  },
  ReplicaSnapshotRefreshed: {
    category: 'share',
    version: 1,
    meaning: "A replica's node refreshed a snapshot instance on it (update_replicated_snapshot).",
  },
  ShareAccessAllowed: {
    category: 'share',
    version: 1,
    meaning: 'An access rule was added, queued to apply on every share instance.',
  },
  ShareAccessDenied: {
    category: 'share',
    version: 1,
    meaning: 'An access rule is to be removed, queued to deny on every share instance.',
  },
  ShareAccessUpdated: {
    category: 'share',
    version: 1,
    meaning: "The driver applied one instance's claimed rule changes (per-rule results).",
  },
  ShareAccessUpdateFailed: {
    category: 'share',
    version: 1,
    meaning: "The driver failed to apply one instance's rule changes: those rules are in error.",
  },
  ShareResizeRequested: {
    category: 'share',
    version: 1,
    meaning:
      'Extend or shrink to a new size was asked for; the instances are extending/shrinking (a non-forced extend first awaits the scheduler).',
  },
  ShareExtendCapacityConfirmed: {
    category: 'share',
    version: 1,
    meaning:
      "The scheduler found room for a non-forced extend on the share's pool: the node extends.",
  },
  ShareExtendRefused: {
    category: 'share',
    version: 1,
    meaning:
      'The scheduler found no room for a non-forced extend: the share is available with its old size.',
  },
  ShareInstanceResized: {
    category: 'share',
    version: 1,
    meaning: 'One instance has the new size.',
  },
  ShareInstanceResizeFailed: {
    category: 'share',
    version: 1,
    meaning:
      'The driver refused the resize (extending_error, shrinking_error or data-loss refusal).',
  },
  ShareRevertRequested: {
    category: 'share',
    version: 1,
    meaning:
      'A revert to the latest snapshot was asked for: the instance (active replica) is reverting, its snapshot instance restoring.',
  },
  ShareReverted: {
    category: 'share',
    version: 1,
    meaning:
      "The driver restored the snapshot's data: the share is available with the snapshot's size.",
  },
  ShareRevertFailed: {
    category: 'share',
    version: 1,
    meaning:
      'The driver failed the revert: the instance is reverting_error, the snapshot available.',
  },
  ShareManageRequested: {
    category: 'share',
    version: 1,
    meaning:
      'An admin asked to adopt a share existing on a pool, by its export path: manage_starting.',
  },
  ShareManaged: {
    category: 'share',
    version: 1,
    meaning:
      'The driver adopted the share: available with the size and export locations it reported.',
  },
  ShareManageFailed: {
    category: 'share',
    version: 1,
    meaning: 'The driver could not adopt the share: manage_error, size 0.',
  },
  ShareUnmanageRequested: {
    category: 'share',
    version: 1,
    meaning: 'Unmanage was asked for: the instance is unmanage_starting.',
  },
  ShareUnmanaged: {
    category: 'share',
    version: 1,
    meaning: 'The driver let the share go with its data kept; ShareDeleted follows.',
  },
  ShareUnmanageFailed: {
    category: 'share',
    version: 1,
    meaning: 'The driver refused to let the share go: unmanage_error.',
  },
  SnapshotManageRequested: {
    category: 'share',
    version: 1,
    meaning:
      "An admin asked to adopt a snapshot existing on the share's back end, by its provider location: manage_starting.",
  },
  SnapshotManaged: {
    category: 'share',
    version: 1,
    meaning: 'The driver adopted the snapshot: available with the size it reported.',
  },
  SnapshotManageFailed: {
    category: 'share',
    version: 1,
    meaning: 'The driver could not adopt the snapshot: manage_error, size 1.',
  },
  SnapshotUnmanageRequested: {
    category: 'share',
    version: 1,
    meaning: 'Snapshot unmanage was asked for: unmanage_starting.',
  },
  SnapshotUnmanaged: {
    category: 'share',
    version: 1,
    meaning:
      'The driver let the snapshot go with its data kept; SnapshotInstanceDeleted and SnapshotDeleted follow.',
  },
  SnapshotUnmanageFailed: {
    category: 'share',
    version: 1,
    meaning: 'The driver refused to let the snapshot go: unmanage_error.',
  },
  SnapshotAccessAllowed: {
    category: 'share',
    version: 1,
    meaning: 'A read-only rule was added to a mountable snapshot: queued_to_apply.',
  },
  SnapshotAccessDenied: {
    category: 'share',
    version: 1,
    meaning: 'A rule of a mountable snapshot is to go: queued_to_deny.',
  },
  SnapshotAccessUpdated: {
    category: 'share',
    version: 1,
    meaning: "The node enforced the snapshot's rules: queued ones active, denied ones gone.",
  },
  SnapshotAccessUpdateFailed: {
    category: 'share',
    version: 1,
    meaning: "The node could not enforce the snapshot's rules: the queued ones are error.",
  },
  ShareTypeCreated: {
    category: 'sharetype',
    version: 1,
    meaning: 'An admin created a share type.',
  },
  ShareTypeUpdated: {
    category: 'sharetype',
    version: 1,
    meaning: 'Name, description or visibility.',
  },
  ShareTypeExtraSpecsSet: { category: 'sharetype', version: 1, meaning: 'Extra specs set.' },
  ShareTypeExtraSpecUnset: {
    category: 'sharetype',
    version: 1,
    meaning: 'One extra spec removed.',
  },
  ShareTypeAccessAdded: {
    category: 'sharetype',
    version: 1,
    meaning: 'A project may use a private type.',
  },
  ShareTypeAccessRemoved: { category: 'sharetype', version: 1, meaning: 'A project lost access.' },
  ShareTypeDeleted: { category: 'sharetype', version: 1, meaning: 'The type was deleted.' },
  BackendRegistered: {
    category: 'backend',
    version: 1,
    meaning: 'A share node serves a back end with this configuration (zone, domain, pools).',
  },
  BackendRemoved: {
    category: 'backend',
    version: 1,
    meaning: 'The node serving the back end started without it: it is shown as removed.',
  },
  BackendServiceDisabled: {
    category: 'backend',
    version: 1,
    meaning: "An admin disabled the back end's manila-share service: no new placements on it.",
  },
  BackendServiceEnabled: {
    category: 'backend',
    version: 1,
    meaning: "An admin enabled the back end's manila-share service again.",
  },
  QuotaLimitsSet: {
    category: 'quota',
    version: 1,
    meaning:
      "An admin set some of a project's limits, or of a user's (userId) or share type's " +
      '(shareTypeId) in it (optional fields, added compatibly).',
  },
  QuotaLimitsReset: {
    category: 'quota',
    version: 1,
    meaning:
      "An admin deleted a project's quotas (all of them: the defaults apply again), or a " +
      "user's or share type's (userId, shareTypeId: the project's apply again).",
  },
  QuotaClassLimitsSet: {
    category: 'quota',
    version: 1,
    meaning:
      "An admin set a quota class's limits, on the class's own stream (quotaclass-<name>); the " +
      "`default` class's are every project's defaults.",
  },
  QuotaReserved: {
    category: 'quota',
    version: 1,
    meaning:
      'Usage counted for one holder (a share, a snapshot) before it is created, for the project ' +
      "and the holder's user and share type (userId, shareTypeId, optional fields). A request " +
      'names the share whose stream must record it (requestShareId, optional field, added ' +
      'compatibly): unclaimed there within the bound, the reservation expires.',
  },
  QuotaReleased: {
    category: 'quota',
    version: 1,
    meaning:
      'A holder is gone or was never created: the usage it names (deltas, and its user and ' +
      'share type, optional fields) no longer counts.',
  },
  QuotaAdjusted: {
    category: 'quota',
    version: 1,
    meaning:
      "A holder's usage changed while it exists (an extend; a finished shrink). An extend's " +
      'names its share (requestShareId, optional field, added compatibly): unclaimed there ' +
      'within the bound, it is reverted.',
  },
  QuotaAdjustmentReverted: {
    category: 'quota',
    version: 1,
    meaning: 'An adjustment was given back (an extend that failed).',
  },
  SnapshotMetadataChanged: {
    category: 'share',
    version: 1,
    meaning: "Keys of a snapshot's metadata (2.73) were set or unset.",
  },
  AccessRuleMetadataChanged: {
    category: 'share',
    version: 1,
    meaning: "Keys of an access rule's metadata (2.45) were set or unset.",
  },
  UserMessageDeleted: { category: 'message', version: 1, meaning: 'A user deleted a message.' },
  ReservationExpired: {
    category: 'share',
    version: 1,
    meaning:
      "A request's quota reservation expired before the request was recorded on the share: " +
      'the request is refused if it still comes, and the reservation is released.',
  },
  ShareSoftDeleted: {
    category: 'share',
    version: 1,
    meaning: 'The share went to the recycle bin (2.69); deleted when its retention time passes.',
  },
  ShareRestored: { category: 'share', version: 1, meaning: 'The share left the recycle bin.' },
  ...REPLICA_EVENT_CATALOGUE,
  ...MIGRATION_EVENT_CATALOGUE,
};

/**
 * The upcasters of every event whose shape changed since it was first written. When one changes,
 * its version goes up above and its step is registered here, with a unit spec of its own.
 */
export const createUpcasters = (): UpcasterRegistry =>
  new UpcasterRegistry().register('SnapshotDeleted', 1, snapshotDeletedV2);
