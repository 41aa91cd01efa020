import type { DomainEvent } from '../shared/decider.js';
import type { ExportLocation } from './share.types.js';

/**
 * An admin asked Hawser to adopt a snapshot that exists on the share's back end, named by its
 * provider location: one instance on the share's instance, `manage_starting`, the share's size
 * until the driver reports the snapshot's.
 */
export type SnapshotManageRequested = DomainEvent<
  'SnapshotManageRequested',
  {
    snapshotId: string;
    snapshotInstanceId: string;
    shareInstanceId: string;
    projectId: string;
    userId: string;
    name: string | null;
    description: string | null;
    metadata: Record<string, string>;
    size: number;
    providerLocation: string;
    driverOptions: Record<string, string>;
    createdAt: string;
  }
>;

/** The driver adopted the snapshot: available, 100%, with the size it reported. */
export type SnapshotManaged = DomainEvent<
  'SnapshotManaged',
  {
    snapshotId: string;
    snapshotInstanceId: string;
    commandId: string;
    size: number;
    providerLocation: string;
    /** Kept only when the share's type supports mounting snapshots (Manila's manager). */
    exportLocations: ExportLocation[];
    managedAt: string;
  }
>;

/** The driver could not adopt it: `manage_error`, size 1 (Manila's, so unmanage works). */
export type SnapshotManageFailed = DomainEvent<
  'SnapshotManageFailed',
  {
    snapshotId: string;
    snapshotInstanceId: string;
    commandId: string;
    message: string;
    failedAt: string;
  }
>;

/** Unmanage was asked for: the snapshot is `unmanage_starting`. */
export type SnapshotUnmanageRequested = DomainEvent<
  'SnapshotUnmanageRequested',
  { snapshotId: string; snapshotInstanceId: string; shareInstanceId: string; requestedAt: string }
>;

/** The driver let the snapshot go, its data kept; SnapshotInstanceDeleted and SnapshotDeleted follow. */
export type SnapshotUnmanaged = DomainEvent<
  'SnapshotUnmanaged',
  { snapshotId: string; snapshotInstanceId: string; commandId: string; unmanagedAt: string }
>;

/** The driver refused to let it go: `unmanage_error`. */
export type SnapshotUnmanageFailed = DomainEvent<
  'SnapshotUnmanageFailed',
  {
    snapshotId: string;
    snapshotInstanceId: string;
    commandId: string;
    message: string;
    failedAt: string;
  }
>;

export type SnapshotManageEvent =
  | SnapshotManageRequested
  | SnapshotManaged
  | SnapshotManageFailed
  | SnapshotUnmanageRequested
  | SnapshotUnmanaged
  | SnapshotUnmanageFailed;
