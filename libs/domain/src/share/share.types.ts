import type { ExtraSpecs, ShareCapabilities } from '../share-type/extra-specs.js';

/** Manila's share / instance statuses (reference 2.1) that Hawser uses. */
export type ShareStatus =
  | 'creating'
  | 'creating_from_snapshot'
  | 'available'
  | 'error'
  | 'deleting'
  | 'error_deleting'
  | 'deleted'
  | 'inactive'
  | 'extending'
  | 'extending_error'
  | 'shrinking'
  | 'shrinking_error'
  | 'shrinking_possible_data_loss_error'
  | 'migrating'
  | 'migrating_to'
  | 'server_migrating'
  | 'replication_change'
  /** Revert to a snapshot (2.27): running, and failed (reference 3.4). */
  | 'reverting'
  | 'reverting_error'
  /** Manage and unmanage (reference 3.4): running, and failed. */
  | 'manage_starting'
  | 'manage_error'
  | 'unmanage_starting'
  | 'unmanage_error';

export type ReplicaState = 'active' | 'in_sync' | 'out_of_sync' | 'error';

/** The statuses an admin may reset a share to (reference 2.2, last row). */
export const RESETTABLE_STATUSES: readonly ShareStatus[] = [
  'creating',
  'available',
  'deleting',
  'error',
  'error_deleting',
  'migrating',
  'migrating_to',
  'server_migrating',
];

/** Driver operations a share node runs for an instance; one at a time per instance. */
export type DriverOperation =
  | 'create_share'
  | 'create_share_from_snapshot'
  | 'delete_share'
  | 'create_snapshot'
  | 'delete_snapshot'
  /** On the active replica: every instance of a snapshot of a share with replicas. */
  | 'create_replicated_snapshot'
  | 'delete_replicated_snapshot'
  | 'update_access'
  | 'extend_share'
  | 'shrink_share'
  | 'create_replica'
  | 'delete_replica'
  | 'promote_replica'
  /** The share instance (the active replica) back to one of its snapshot instances. */
  | 'revert_to_snapshot'
  /** Adopting an existing share on the pool, and letting it go with its data. */
  | 'manage_share'
  | 'unmanage_share'
  /** Adopting an existing snapshot of the instance, and letting it go with its data. */
  | 'manage_snapshot'
  | 'unmanage_snapshot'
  /** Enforcing a mountable snapshot's read-only access rules (2.32). */
  | 'update_snapshot_access'
  /** On a migration's destination: the driver's start of the data move. */
  | 'migration_start';

/** Manila's TRANSITIONAL_STATUSES (reference 2.1) that Hawser uses. */
export const TRANSITIONAL_STATUSES: ReadonlySet<ShareStatus> = new Set<ShareStatus>([
  'creating',
  'deleting',
  'extending',
  'shrinking',
  'migrating',
  'migrating_to',
  'server_migrating',
  'reverting',
  'manage_starting',
  'unmanage_starting',
]);

export interface ExportLocation {
  readonly id: string;
  readonly path: string;
  readonly preferred: boolean;
  readonly isAdminOnly: boolean;
}

export interface SchedulerHints {
  readonly sameHost?: readonly string[];
  readonly differentHost?: readonly string[];
  readonly onlyHost?: string;
}

/** What the scheduler needs to know of the share type, frozen at request time. */
export interface RequestedShareType {
  readonly id: string;
  readonly name: string;
  readonly extraSpecs: ExtraSpecs;
}

export type { ShareCapabilities };
