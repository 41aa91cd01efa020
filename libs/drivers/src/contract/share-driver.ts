/**
 * The share driver contract: what a share node calls to act on storage.
 *
 * Modelled on Manila's `share/driver.py` (reference section 8), with three deliberate changes:
 * - every argument and result is plain data (JSON-serialisable, no class instances), so requests
 *   can cross a transport and be journalled;
 * - every operation receives the `commandId` of the command that asked for it; a driver makes
 *   a repeated call with the same command id harmless, and the id traces the call end to end;
 * - failures are thrown as `DriverError` (see driver-error.ts) with a user-facing message.
 *
 * Field names are camelCase, except pool capabilities, which keep Manila's snake_case keys
 * because extra specs and filter/goodness expressions name them (`capabilities.free_capacity_gb`).
 */

export type ShareProtocol = 'NFS' | 'CIFS' | 'GLUSTERFS' | 'HDFS' | 'CEPHFS' | 'MAPRFS';

export type ReplicaState = 'active' | 'in_sync' | 'out_of_sync' | 'error';

export type ReplicationType = 'writable' | 'readable' | 'dr';

export type AccessLevel = 'rw' | 'ro';

export type AccessType = 'ip' | 'user' | 'cert' | 'cephx';

/** Share-instance statuses a driver may report (reference 2.1, 4.5). */
export type DriverShareStatus = 'available' | 'creating_from_snapshot' | 'error';

export type DriverSnapshotStatus = 'available' | 'creating' | 'deleting' | 'error' | 'deleted';

/** Base of every request: the command that asked for the operation. */
export interface DriverRequest {
  readonly commandId: string;
}

/** A share instance (or replica) as the driver sees it. */
export interface ShareInstanceRef {
  readonly shareId: string;
  /** Instance id; for replicated shares this is the replica id. */
  readonly instanceId: string;
  readonly sizeGiB: number;
  readonly protocol: ShareProtocol;
  /** Placement, `host@backend#pool`. */
  readonly host: string;
  /** Set for members of a replicated share, null or absent otherwise. */
  readonly replicaState?: ReplicaState | null;
}

/** A snapshot instance: the copy of one snapshot on one share instance. */
export interface SnapshotInstanceRef {
  readonly snapshotId: string;
  readonly snapshotInstanceId: string;
  readonly shareId: string;
  /** The share instance (replica) this snapshot instance belongs to. */
  readonly shareInstanceId: string;
  readonly sizeGiB: number;
  readonly status?: DriverSnapshotStatus;
}

export interface ExportLocation {
  readonly path: string;
  readonly isAdminOnly: boolean;
  readonly preferred: boolean;
  readonly metadata?: Readonly<Record<string, string>>;
}

export interface AccessRule {
  readonly accessId: string;
  readonly accessType: AccessType;
  readonly accessTo: string;
  readonly accessLevel: AccessLevel;
}

export interface AccessRuleUpdate {
  readonly state?: 'active' | 'error';
  readonly accessKey?: string;
}

// ---------------------------------------------------------------------------------------------
// Shares

export interface CreateShareRequest extends DriverRequest {
  readonly share: ShareInstanceRef;
}

export interface CreateShareResult {
  readonly exportLocations: readonly ExportLocation[];
}

export interface DeleteShareRequest extends DriverRequest {
  readonly share: ShareInstanceRef;
}

export interface DeleteShareResult {
  /** False when there was nothing to delete (Manila tolerates ShareResourceNotFound). */
  readonly existed: boolean;
}

export interface CreateShareFromSnapshotRequest extends DriverRequest {
  /** The new share instance; its host may be another pool or back end than the snapshot's. */
  readonly share: ShareInstanceRef;
  /** The snapshot instance to copy (for replicated shares: the active replica's). */
  readonly snapshot: SnapshotInstanceRef;
  /** The snapshot's parent share instance, whose host tells where the snapshot lives. */
  readonly parentShare: ShareInstanceRef;
}

export interface ShareStatusResult {
  readonly status: DriverShareStatus;
  /** 0..100; 100 when available. */
  readonly progress: number;
  readonly exportLocations?: readonly ExportLocation[];
  /** User-facing reason when status is `error`. */
  readonly errorMessage?: string;
  /** Bytes in use, where the back end measures them. */
  readonly usage?: ShareUsage;
}

/**
 * `enforced`: the back end refuses writes past the size (e.g. project quotas).
 * `reported`: writes past the size succeed and show up as `overLimit`.
 */
export interface ShareUsage {
  readonly usedBytes: number;
  readonly limitBytes: number;
  readonly overLimit: boolean;
  readonly enforcement: 'enforced' | 'reported';
  /** How: `reported`, or the back end's mechanism (`btrfs-qgroup`, ...). */
  readonly strategy?: string;
}

export type CreateShareFromSnapshotResult = ShareStatusResult & {
  readonly status: 'available' | 'creating_from_snapshot';
};

export interface GetShareStatusRequest extends DriverRequest {
  readonly share: ShareInstanceRef;
}

export interface ResizeShareRequest extends DriverRequest {
  /** The share with its current size. */
  readonly share: ShareInstanceRef;
  readonly newSizeGiB: number;
}

// ---------------------------------------------------------------------------------------------
// Snapshots

export interface SnapshotRequest extends DriverRequest {
  readonly snapshot: SnapshotInstanceRef;
  /** The share instance the snapshot is taken of. */
  readonly share: ShareInstanceRef;
}

export interface CreateSnapshotResult {
  readonly status: 'available' | 'creating';
  readonly progress: number;
  readonly providerLocation?: string;
  readonly exportLocations?: readonly ExportLocation[];
}

export interface DeleteSnapshotResult {
  readonly existed: boolean;
}

// ---------------------------------------------------------------------------------------------
// Access

/**
 * Manila's update_access: with `addRules`/`deleteRules` empty, `accessRules` is the full set to
 * enforce (a full sync); otherwise only the listed rules change. With `castRulesToReadonly`
 * (non-active replica of a readable share) every rule is applied read-only.
 */
export interface UpdateAccessRequest extends DriverRequest {
  readonly share: ShareInstanceRef;
  readonly accessRules: readonly AccessRule[];
  readonly addRules: readonly AccessRule[];
  readonly deleteRules: readonly AccessRule[];
  readonly castRulesToReadonly: boolean;
}

export interface UpdateAccessResult {
  /** Per access id; rules not listed went to `active` (deleting never-applied rules never fails). */
  readonly ruleUpdates: Readonly<Record<string, AccessRuleUpdate>>;
}

export interface NetworkExports {
  readonly protocol: ShareProtocol;
  readonly served: boolean;
  /** What serves the shares, or why nothing does. */
  readonly reason: string;
}

// ---------------------------------------------------------------------------------------------
// Start-up reconciliation

export interface EnsureSharesRequest extends DriverRequest {
  /** Every instance the service believes lives on this back end. */
  readonly shares: readonly ShareInstanceRef[];
}

/**
 * `present`: exists and is whole. `missing`: the back end has no trace of it.
 * `completed`: half-done work was found and finished. `resumed`: half-done work (a background
 * copy) was found and restarted; `status` says where it stands. `rolled_back`: half-done work
 * was found and cleaned up, so the instance does not exist (its operation failed).
 */
export type EnsureOutcome = 'present' | 'missing' | 'completed' | 'resumed' | 'rolled_back';

export interface EnsuredShare {
  readonly instanceId: string;
  readonly outcome: EnsureOutcome;
  readonly status: DriverShareStatus | 'missing';
  readonly progress?: number;
  readonly exportLocations?: readonly ExportLocation[];
  readonly detail?: string;
}

/** Half-done work found at start-up (any resource kind, including ones not in the request). */
export interface RecoveredOperation {
  readonly operation: DriverOperationName;
  readonly commandId: string;
  readonly resourceId: string;
  readonly resolution: 'completed' | 'rolled_back' | 'resumed';
}

export interface EnsureSharesResult {
  readonly shares: readonly EnsuredShare[];
  readonly recovered: readonly RecoveredOperation[];
}

// ---------------------------------------------------------------------------------------------
// Replication (reference section 5)

export interface ReplicaSnapshotPair {
  readonly activeReplicaSnapshot: SnapshotInstanceRef;
  readonly shareReplicaSnapshot: SnapshotInstanceRef;
}

export interface CreateReplicaRequest extends DriverRequest {
  /** Every replica of the share, the new one included. */
  readonly replicaList: readonly ShareInstanceRef[];
  readonly newReplica: ShareInstanceRef;
  readonly accessRules: readonly AccessRule[];
  readonly replicaSnapshots: readonly ReplicaSnapshotPair[];
}

export interface CreateReplicaResult {
  readonly exportLocations: readonly ExportLocation[];
  readonly replicaState: ReplicaState;
  readonly accessRulesStatus: 'active' | 'error';
}

export interface DeleteReplicaRequest extends DriverRequest {
  readonly replicaList: readonly ShareInstanceRef[];
  readonly replica: ShareInstanceRef;
  readonly replicaSnapshots: readonly SnapshotInstanceRef[];
}

export interface PromoteReplicaRequest extends DriverRequest {
  readonly replicaList: readonly ShareInstanceRef[];
  /** The replica to become active. */
  readonly replica: ShareInstanceRef;
  readonly accessRules: readonly AccessRule[];
}

export interface ReplicaUpdate {
  readonly instanceId: string;
  readonly replicaState?: ReplicaState;
  readonly exportLocations?: readonly ExportLocation[];
  readonly accessRulesStatus?: 'active' | 'error';
}

export interface PromoteReplicaResult {
  /** One entry per replica, the promoted one included. */
  readonly replicas: readonly ReplicaUpdate[];
}

export interface UpdateReplicaStateRequest extends DriverRequest {
  readonly replicaList: readonly ShareInstanceRef[];
  readonly replica: ShareInstanceRef;
  readonly accessRules: readonly AccessRule[];
  readonly replicaSnapshots: readonly ReplicaSnapshotPair[];
}

export interface UpdateReplicaStateResult {
  readonly replicaState: Exclude<ReplicaState, 'active'>;
}

export interface ReplicatedSnapshotRequest extends DriverRequest {
  readonly replicaList: readonly ShareInstanceRef[];
  /** One snapshot instance per replica. */
  readonly replicaSnapshots: readonly SnapshotInstanceRef[];
}

export interface SnapshotInstanceUpdate {
  readonly snapshotInstanceId: string;
  readonly status: DriverSnapshotStatus;
  readonly progress?: number;
  readonly providerLocation?: string;
}

export interface ReplicatedSnapshotResult {
  readonly snapshotInstances: readonly SnapshotInstanceUpdate[];
}

export interface UpdateReplicatedSnapshotRequest extends DriverRequest {
  readonly replicaList: readonly ShareInstanceRef[];
  /** The non-active replica being refreshed. */
  readonly shareReplica: ShareInstanceRef;
  readonly replicaSnapshots: readonly SnapshotInstanceRef[];
  /** The snapshot instance on `shareReplica` to refresh. */
  readonly replicaSnapshot: SnapshotInstanceRef;
}

// ---------------------------------------------------------------------------------------------
// Pool statistics (reference 1.9, 6.1, 8)

/**
 * Every capability key the scheduler reads, per pool, with back-end-level keys already merged
 * in (so each pool is complete on its own). Manila's snake_case names on purpose.
 */
export interface PoolCapabilities {
  readonly pool_name: string;
  readonly total_capacity_gb: number | 'unknown';
  readonly free_capacity_gb: number | 'unknown';
  readonly allocated_capacity_gb: number;
  readonly provisioned_capacity_gb: number;
  readonly reserved_percentage: number;
  readonly reserved_snapshot_percentage: number;
  readonly reserved_share_extend_percentage: number;
  readonly thin_provisioning: boolean;
  readonly max_over_subscription_ratio: number;
  readonly qos: boolean;
  readonly dedupe: boolean;
  readonly compression: boolean;
  readonly snapshot_support: boolean;
  readonly create_share_from_snapshot_support: boolean;
  readonly revert_to_snapshot_support: boolean;
  readonly mount_snapshot_support: boolean;
  readonly replication_type: ReplicationType | null;
  readonly replication_domain: string | null;
  readonly driver_handles_share_servers: boolean;
  readonly ipv4_support: boolean;
  readonly ipv6_support: boolean;
  readonly share_backend_name: string;
  readonly vendor_name: string;
  readonly driver_version: string;
  readonly storage_protocol: string;
  readonly goodness_function: string | null;
  readonly filter_function: string | null;
  readonly sg_consistent_snapshot_support: 'pool' | 'host' | null;
  readonly security_service_update_support: boolean;
  readonly network_allocation_update_support: boolean;
  readonly share_server_multiple_subnet_support: boolean;
  /** ISO-8601 time the figures were taken. */
  readonly timestamp: string;
  /**
   * A vendor key, reported by drivers with real data: how share sizes are held in the pool
   * (`reported`, `btrfs-qgroup`, ...); share types can require one.
   */
  readonly size_enforcement?: string;
}

/** One pool as the scheduler-stats API shows it (reference 1.9). */
export interface PoolStats {
  /** `host@backend#pool`. */
  readonly name: string;
  readonly host: string;
  readonly backend: string;
  readonly pool: string;
  readonly availabilityZone: string;
  readonly capabilities: PoolCapabilities;
}

export interface BackendStatsReport {
  /** `host@backend`. */
  readonly backend: string;
  readonly availabilityZone: string;
  readonly pools: readonly PoolStats[];
}

export type GetPoolStatsRequest = DriverRequest;

// ---------------------------------------------------------------------------------------------
// Manage and unmanage (driver_handles_share_servers=False)

export interface ManageShareRequest extends DriverRequest {
  /** The share to adopt; its size is what the driver reports. */
  readonly share: ShareInstanceRef;
  /** Where the share is on the back end, as the admin named it (an export location). */
  readonly exportPath: string;
  readonly driverOptions: Readonly<Record<string, string>>;
}

export interface ManageShareResult {
  readonly sizeGiB: number;
  readonly exportLocations: readonly ExportLocation[];
}

export interface UnmanageShareRequest extends DriverRequest {
  readonly share: ShareInstanceRef;
}

/**
 * Manila's snapshot_update_access: the snapshot's rules (all read-only); with `addRules` and
 * `deleteRules` empty, `accessRules` is the full set to enforce.
 */
export interface SnapshotAccessRequest extends SnapshotRequest {
  readonly accessRules: readonly AccessRule[];
  readonly addRules: readonly AccessRule[];
  readonly deleteRules: readonly AccessRule[];
}

export interface ManageSnapshotRequest extends SnapshotRequest {
  /** Where the snapshot is on the back end, as the admin named it. */
  readonly providerLocation: string;
  readonly driverOptions: Readonly<Record<string, string>>;
}

export interface ManageSnapshotResult {
  /** Absent when the driver cannot tell: the share's size stands in (Manila's manager). */
  readonly sizeGiB?: number;
  readonly providerLocation: string;
  /** Where clients mount it, for back ends that mount snapshots. */
  readonly exportLocations?: readonly ExportLocation[];
}

// ---------------------------------------------------------------------------------------------
// The driver

export type DriverOperationName =
  | 'createShare'
  | 'deleteShare'
  | 'createSnapshot'
  | 'deleteSnapshot'
  | 'revertToSnapshot'
  | 'manageExisting'
  | 'unmanage'
  | 'manageExistingSnapshot'
  | 'unmanageSnapshot'
  | 'snapshotUpdateAccess'
  | 'createShareFromSnapshot'
  | 'getShareStatus'
  | 'extendShare'
  | 'shrinkShare'
  | 'updateAccess'
  | 'ensureShares'
  | 'createReplica'
  | 'deleteReplica'
  | 'promoteReplica'
  | 'updateReplicaState'
  | 'createReplicatedSnapshot'
  | 'deleteReplicatedSnapshot'
  | 'updateReplicatedSnapshot'
  | 'getPoolStats';

export interface ShareDriver {
  /** `host@backend` this driver instance serves. */
  readonly backend: string;
  readonly availabilityZone: string;
  /** Pool names (the part after `#`). */
  readonly poolNames: readonly string[];

  /** Prepares storage (directories, journal replay). Call once before any operation. */
  initialize(): Promise<void>;
  /** Stops background work (copies resume on the next start via ensureShares). */
  close(): Promise<void>;

  createShare(request: CreateShareRequest): Promise<CreateShareResult>;
  deleteShare(request: DeleteShareRequest): Promise<DeleteShareResult>;
  createShareFromSnapshot(
    request: CreateShareFromSnapshotRequest,
  ): Promise<CreateShareFromSnapshotResult>;
  getShareStatus(request: GetShareStatusRequest): Promise<ShareStatusResult>;
  extendShare(request: ResizeShareRequest): Promise<void>;
  /** Throws `shrinking_possible_data_loss` when the data does not fit the new size. */
  shrinkShare(request: ResizeShareRequest): Promise<void>;

  createSnapshot(request: SnapshotRequest): Promise<CreateSnapshotResult>;
  deleteSnapshot(request: SnapshotRequest): Promise<DeleteSnapshotResult>;
  /**
   * Restores the share instance's data to the snapshot instance's (Manila's
   * revert_to_snapshot): what was written since is gone, the share takes the snapshot's size.
   */
  revertToSnapshot(request: SnapshotRequest): Promise<void>;

  /** Adopts a share that exists on the pool (Manila's manage_existing), reporting its size. */
  manageExisting(request: ManageShareRequest): Promise<ManageShareResult>;
  /** Stops managing a share, its data kept on the back end (Manila's unmanage). */
  unmanage(request: UnmanageShareRequest): Promise<void>;
  /** Adopts a snapshot of the share that exists on the back end (manage_existing_snapshot). */
  manageExistingSnapshot(request: ManageSnapshotRequest): Promise<ManageSnapshotResult>;
  /** Stops managing a snapshot, its data kept on the back end (Manila's unmanage_snapshot). */
  unmanageSnapshot(request: SnapshotRequest): Promise<void>;
  /** Enforces a mountable snapshot's read-only access rules (snapshot_update_access, 2.32). */
  snapshotUpdateAccess(request: SnapshotAccessRequest): Promise<void>;

  updateAccess(request: UpdateAccessRequest): Promise<UpdateAccessResult>;

  /** Drivers with real data: per protocol, whether shares reach clients over the network, and why not. */
  networkExports?(): readonly NetworkExports[];

  ensureShares(request: EnsureSharesRequest): Promise<EnsureSharesResult>;

  createReplica(request: CreateReplicaRequest): Promise<CreateReplicaResult>;
  deleteReplica(request: DeleteReplicaRequest): Promise<void>;
  promoteReplica(request: PromoteReplicaRequest): Promise<PromoteReplicaResult>;
  updateReplicaState(request: UpdateReplicaStateRequest): Promise<UpdateReplicaStateResult>;
  createReplicatedSnapshot(request: ReplicatedSnapshotRequest): Promise<ReplicatedSnapshotResult>;
  /** Instances reported `deleted` are gone; the share node removes their rows. */
  deleteReplicatedSnapshot(request: ReplicatedSnapshotRequest): Promise<ReplicatedSnapshotResult>;
  /** Throws `snapshot_not_found` when the replica's snapshot instance does not exist. */
  updateReplicatedSnapshot(
    request: UpdateReplicatedSnapshotRequest,
  ): Promise<SnapshotInstanceUpdate>;

  getPoolStats(request: GetPoolStatsRequest): Promise<BackendStatsReport>;
}

// ---------------------------------------------------------------------------------------------
// Share migration (Manila's migration_check_compatibility / migration_start, host-assisted copy)

export interface MigrationRequest extends DriverRequest {
  /** The share instance being migrated (on another back end or pool). */
  readonly source: ShareInstanceRef;
  /** The new instance on this driver's pool. */
  readonly destination: ShareInstanceRef;
}

/** What a driver can keep during a driver-assisted migration (Manila's driver interface). */
export interface MigrationCompatibility {
  readonly compatible: boolean;
  readonly writable: boolean;
  readonly nondisruptive: boolean;
  readonly preserveMetadata: boolean;
  readonly preserveSnapshots: boolean;
}

export interface MigrationStartRequest extends MigrationRequest {
  /** `driver`: the driver moves the share its own way; `host`: a file copy with progress. */
  readonly method: 'driver' | 'host';
}

/**
 * Drivers that can take a share from another pool. `migrationStart` answers `available` when
 * the destination holds the data, or `creating_from_snapshot` while a background copy runs,
 * which `getShareStatus` on the destination then follows (progress from the bytes copied).
 */
export interface MigrationCapableDriver {
  migrationCheckCompatibility(request: MigrationRequest): Promise<MigrationCompatibility>;
  migrationStart(request: MigrationStartRequest): Promise<ShareStatusResult>;
}

export const canMigrate = (driver: object): driver is MigrationCapableDriver =>
  typeof (driver as Partial<MigrationCapableDriver>).migrationStart === 'function' &&
  typeof (driver as Partial<MigrationCapableDriver>).migrationCheckCompatibility === 'function';
