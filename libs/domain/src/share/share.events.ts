import type { DomainEvent } from '../shared/decider.js';
import type { ShareCapabilities } from '../share-type/extra-specs.js';
import type { AccessEvent } from './share-access.events.js';
import type { PlacementEvent } from './share-placement.events.js';
import type { FromSnapshotEvent } from './share-from-snapshot.events.js';
import type { MigrationEvent } from './share-migration.events.js';
import type { SnapshotSource } from './share-from-snapshot.types.js';
import type { RecycleBinEvent } from './share-recycle-bin.events.js';
import type { ReplicaEvent } from './share-replica.events.js';
import type { ResizeEvent } from './share-resize.events.js';
import type { RevertEvent } from './share-revert.events.js';
import type { ManageEvent } from './share-manage.events.js';
import type { SnapshotManageEvent } from './share-snapshot-manage.events.js';
import type { SnapshotAccessEvent } from './share-snapshot-access.events.js';
import type { SnapshotEvent } from './share-snapshot.events.js';
import type {
  DriverOperation,
  ExportLocation,
  RequestedShareType,
  SchedulerHints,
  ShareStatus,
} from './share.types.js';

export type ShareRequested = DomainEvent<
  'ShareRequested',
  {
    shareId: string;
    instanceId: string;
    projectId: string;
    userId: string;
    name: string | null;
    description: string | null;
    size: number;
    shareProto: string;
    shareType: RequestedShareType;
    capabilities: ShareCapabilities;
    /** The zone the user asked for, if any. */
    availabilityZone: string | null;
    metadata: Record<string, string>;
    isPublic: boolean;
    snapshotId: string | null;
    /** Set when created from a snapshot (added compatibly: absent in older events). */
    snapshotSource?: SnapshotSource;
    schedulerHints: SchedulerHints | null;
    createdAt: string;
  }
>;

export type ShareScheduled = DomainEvent<
  'ShareScheduled',
  { instanceId: string; host: string; availabilityZone: string; size: number; scheduledAt: string }
>;

export type ShareSchedulingFailed = DomainEvent<
  'ShareSchedulingFailed',
  {
    instanceId: string;
    /** The message shown to the user (Manila's "No valid host was found. ..."). */
    message: string;
    /** Which filter removed how many pools, for operators. */
    detail: Record<string, unknown>;
    failedAt: string;
  }
>;

/** A share node claimed an operation; the driver is called only after this is appended. */
export type ShareDriverOperationStarted = DomainEvent<
  'ShareDriverOperationStarted',
  {
    instanceId: string;
    operation: DriverOperation;
    commandId: string;
    host: string;
    /** The snapshot instance, for snapshot operations. */
    snapshotId?: string;
    snapshotInstanceId?: string;
    startedAt: string;
  }
>;

export type ShareCreated = DomainEvent<
  'ShareCreated',
  { instanceId: string; commandId: string; exportLocations: ExportLocation[]; createdAt: string }
>;

export type ShareCreationFailed = DomainEvent<
  'ShareCreationFailed',
  { instanceId: string; commandId: string; message: string; failedAt: string }
>;

export type ShareUpdated = DomainEvent<
  'ShareUpdated',
  { name?: string | null; description?: string | null; isPublic?: boolean; updatedAt: string }
>;

export type ShareMetadataChanged = DomainEvent<
  'ShareMetadataChanged',
  { set: Record<string, string>; unset: string[]; updatedAt: string }
>;

export type ShareStatusReset = DomainEvent<
  'ShareStatusReset',
  { instanceId: string; status: ShareStatus; resetAt: string }
>;

export type ShareDeletionRequested = DomainEvent<
  'ShareDeletionRequested',
  { instanceIds: string[]; force: boolean; requestedAt: string }
>;

export type ShareInstanceDeleted = DomainEvent<
  'ShareInstanceDeleted',
  { instanceId: string; commandId: string | null; deletedAt: string }
>;

export type ShareDeletionFailed = DomainEvent<
  'ShareDeletionFailed',
  { instanceId: string; commandId: string; message: string; failedAt: string }
>;

/** The last instance is gone: the share no longer exists. */
export type ShareDeleted = DomainEvent<'ShareDeleted', { shareId: string; deletedAt: string }>;

/**
 * The quota reservation of a request on this share (a create, snapshot, replica or extend, named
 * by its reservation id) expired before the request was recorded here: that request is refused
 * if it still comes, so nothing is created that the quota no longer counts.
 */
export type ReservationExpired = DomainEvent<
  'ReservationExpired',
  { reservationId: string; expiredAt: string }
>;

export type ShareEvent =
  | SnapshotEvent
  | FromSnapshotEvent
  | AccessEvent
  | ResizeEvent
  | PlacementEvent
  | ReplicaEvent
  | RevertEvent
  | ManageEvent
  | SnapshotManageEvent
  | SnapshotAccessEvent
  | RecycleBinEvent
  | MigrationEvent
  | ShareRequested
  | ShareScheduled
  | ShareSchedulingFailed
  | ShareDriverOperationStarted
  | ShareCreated
  | ShareCreationFailed
  | ShareUpdated
  | ShareMetadataChanged
  | ShareStatusReset
  | ShareDeletionRequested
  | ShareInstanceDeleted
  | ShareDeletionFailed
  | ShareDeleted
  | ReservationExpired;

export type ShareEventType = ShareEvent['type'];

export const SHARE_STREAM_PREFIX = 'share-';
export const shareStream = (shareId: string): string => `${SHARE_STREAM_PREFIX}${shareId}`;
export const shareIdOfStream = (streamId: string): string =>
  streamId.slice(SHARE_STREAM_PREFIX.length);
