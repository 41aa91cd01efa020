import { DriverError } from '../contract/driver-error.js';
import type {
  CreateReplicaRequest,
  CreateReplicaResult,
  CreateShareFromSnapshotRequest,
  CreateShareFromSnapshotResult,
  CreateShareRequest,
  CreateShareResult,
  CreateSnapshotResult,
  DeleteReplicaRequest,
  DeleteShareRequest,
  DeleteShareResult,
  DeleteSnapshotResult,
  DriverShareStatus,
  EnsureSharesRequest,
  EnsureSharesResult,
  ExportLocation,
  GetShareStatusRequest,
  ManageShareRequest,
  ManageShareResult,
  ManageSnapshotRequest,
  ManageSnapshotResult,
  SnapshotAccessRequest,
  UnmanageShareRequest,
  PromoteReplicaRequest,
  PromoteReplicaResult,
  ReplicaState,
  ReplicatedSnapshotRequest,
  ReplicatedSnapshotResult,
  ReplicationType,
  ResizeShareRequest,
  ShareInstanceRef,
  ShareStatusResult,
  SnapshotInstanceUpdate,
  SnapshotRequest,
  UpdateAccessRequest,
  UpdateAccessResult,
  UpdateReplicaStateRequest,
  UpdateReplicaStateResult,
  UpdateReplicatedSnapshotRequest,
} from '../contract/share-driver.js';
import { parseShareHost } from '../contract/share-host.js';
import {
  applyAccessRequest,
  appliedRulesFor,
  castReadOnly,
  type AppliedAccessRule,
} from '../common/access-rules.js';
import {
  activeReplicaOf,
  checkProtocol,
  checkSize,
  ownPlacement,
  requireAvailable,
  shareNotFound,
  snapshotNotFound,
} from '../common/driver-checks.js';
import type { SimulatedBackendConfig } from '../config/backend-config.js';

export const DEFAULT_SIMULATED_POOL_GB = 1000;

/**
 * One share on the simulated back end: its data, as a real back end keeps it on its storage.
 * Kept small (every share that exists has one): its export locations follow from its ids and
 * are made when asked for, and the request it was created by is not held.
 */
interface SimulatedShare {
  readonly shareId: string;
  readonly instanceId: string;
  readonly pool: string;
  sizeGiB: number;
  usedGiB: number;
  status: DriverShareStatus;
  /** Polls left before an asynchronous creation completes. */
  pollsLeft: number;
  pollsTotal: number;
  replicaState: ReplicaState | null;
  readOnly: boolean;
  rules: AppliedAccessRule[];
}

interface SimulatedSnapshot {
  readonly snapshotInstanceId: string;
  readonly shareInstanceId: string;
  readonly sizeGiB: number;
  /**
   * The share's data when the snapshot was taken, which a revert restores; absent where a
   * replica received the snapshot without data of its own to measure.
   */
  readonly usedGiB?: number;
}

export interface SimulatedPoolUsage {
  allocatedGiB: number;
  readonly totalGiB: number;
}

/** A read-only view of one simulated share, for tests and diagnostics. */
export interface SimulatedShareView {
  readonly instanceId: string;
  readonly pool: string;
  readonly sizeGiB: number;
  readonly usedGiB: number;
  readonly status: DriverShareStatus;
  readonly replicaState: ReplicaState | null;
  readonly readOnly: boolean;
  readonly rules: readonly AppliedAccessRule[];
  readonly snapshotInstanceIds: readonly string[];
}

/**
 * The in-memory back end. Every method is synchronous and depends only on its request and the
 * current state, so replaying a journal of requests rebuilds the same state.
 */
export class SimulatedStorage {
  private readonly shares = new Map<string, SimulatedShare>();
  private readonly snapshots = new Map<string, SimulatedSnapshot>();
  readonly pools = new Map<string, SimulatedPoolUsage>();
  private readonly poolNames: readonly string[];
  private readonly replicationType: ReplicationType | null;
  private readonly exportAddress: string;

  constructor(private readonly config: SimulatedBackendConfig) {
    for (const pool of config.pools) {
      this.pools.set(pool.name, {
        allocatedGiB: 0,
        totalGiB: pool.totalCapacityGb ?? DEFAULT_SIMULATED_POOL_GB,
      });
    }
    this.poolNames = config.pools.map((pool) => pool.name);
    this.replicationType = config.replicationDomain
      ? (config.options?.replicationType ?? 'readable')
      : null;
    this.exportAddress = config.options?.exportAddress ?? parseHostPart(config.name);
  }

  createShare({ share }: CreateShareRequest): CreateShareResult {
    const existing = this.shares.get(share.instanceId);
    if (existing) return { exportLocations: this.exportLocationsOf(existing) };
    const created = this.addShare(share, 'available');
    return { exportLocations: this.exportLocationsOf(created) };
  }

  /**
   * Adopts a share the simulated back end is told exists: its size is the `size` driver option
   * (whole GiB, default 1), as a real back end would measure it.
   */
  manageExisting({ share, driverOptions }: ManageShareRequest): ManageShareResult {
    const existing = this.shares.get(share.instanceId);
    if (existing)
      return { sizeGiB: existing.sizeGiB, exportLocations: this.exportLocationsOf(existing) };
    const sizeGiB = Number(driverOptions.size ?? 1);
    if (!Number.isInteger(sizeGiB) || sizeGiB < 1) {
      throw new DriverError({
        code: 'invalid_request',
        userMessage: 'The size driver option must be a whole number of GiB.',
      });
    }
    const adopted = this.addShare({ ...share, sizeGiB }, 'available');
    return { sizeGiB, exportLocations: this.exportLocationsOf(adopted) };
  }

  /** Forgets the share; its (simulated) data is not deleted, only no longer counted here. */
  unmanage({ share }: UnmanageShareRequest): void {
    const existing = this.shares.get(share.instanceId);
    if (existing) this.removeShare(existing);
  }

  deleteShare({ share }: DeleteShareRequest): DeleteShareResult {
    const existing = this.shares.get(share.instanceId);
    if (!existing) return { existed: false };
    if (this.snapshotIdsOf(share.instanceId).length > 0) {
      throw new DriverError({
        code: 'invalid_request',
        userMessage: 'The share still has snapshots.',
        detail: `share instance ${share.instanceId}`,
      });
    }
    this.removeShare(existing);
    return { existed: true };
  }

  createShareFromSnapshot(request: CreateShareFromSnapshotRequest): CreateShareFromSnapshotResult {
    const { share, snapshot, parentShare } = request;
    const existing = this.shares.get(share.instanceId);
    if (existing) return this.statusOf(existing) as CreateShareFromSnapshotResult;
    const parent = parseShareHost(parentShare.host);
    if (parent.backend === this.config.name && !this.snapshots.has(snapshot.snapshotInstanceId)) {
      throw snapshotNotFound(snapshot.snapshotInstanceId);
    }
    if (share.sizeGiB < snapshot.sizeGiB) {
      throw new DriverError({
        code: 'invalid_request',
        userMessage: 'The new share is smaller than the snapshot.',
      });
    }
    const placement = parseShareHost(share.host);
    const mode = this.config.options?.asyncCreateFromSnapshot ?? 'cross-pool';
    const crossPool = placement.backend !== parent.backend || placement.pool !== parent.pool;
    const asynchronous = mode === 'always' || (mode === 'cross-pool' && crossPool);
    const polls = Math.max(1, this.config.options?.createFromSnapshotPolls ?? 4);
    const created = this.addShare(share, asynchronous ? 'creating_from_snapshot' : 'available');
    if (asynchronous) {
      created.pollsLeft = polls;
      created.pollsTotal = polls;
    }
    return this.statusOf(created) as CreateShareFromSnapshotResult;
  }

  /** Each poll of an asynchronous creation advances it by one step. */
  getShareStatus({ share }: GetShareStatusRequest): ShareStatusResult {
    const existing = this.requireShare(share.instanceId);
    if (existing.status === 'creating_from_snapshot') {
      existing.pollsLeft -= 1;
      if (existing.pollsLeft <= 0) existing.status = 'available';
    }
    return this.statusOf(existing);
  }

  extendShare({ share, newSizeGiB }: ResizeShareRequest): void {
    const existing = this.requireShare(share.instanceId);
    checkSize(newSizeGiB);
    if (newSizeGiB <= existing.sizeGiB) {
      if (newSizeGiB === existing.sizeGiB) return;
      throw new DriverError({
        code: 'invalid_request',
        userMessage: 'The new size must be larger than the current size.',
      });
    }
    this.reserve(existing.pool, newSizeGiB - existing.sizeGiB);
    existing.sizeGiB = newSizeGiB;
  }

  shrinkShare({ share, newSizeGiB }: ResizeShareRequest): void {
    const existing = this.requireShare(share.instanceId);
    checkSize(newSizeGiB);
    if (newSizeGiB >= existing.sizeGiB) {
      if (newSizeGiB === existing.sizeGiB) return;
      throw new DriverError({
        code: 'invalid_request',
        userMessage: 'The new size must be smaller than the current size.',
      });
    }
    if (existing.usedGiB > newSizeGiB) {
      throw new DriverError({
        code: 'shrinking_possible_data_loss',
        userMessage: 'The share holds more data than the requested size.',
        detail: `${existing.usedGiB} GiB used, ${newSizeGiB} GiB requested`,
      });
    }
    this.release(existing.pool, existing.sizeGiB - newSizeGiB);
    existing.sizeGiB = newSizeGiB;
  }

  createSnapshot({ snapshot, share }: SnapshotRequest): CreateSnapshotResult {
    const existing = this.requireShare(share.instanceId);
    if (!this.snapshots.has(snapshot.snapshotInstanceId)) {
      requireAvailable(share.instanceId, existing.status, 'take a snapshot');
      this.snapshots.set(snapshot.snapshotInstanceId, {
        snapshotInstanceId: snapshot.snapshotInstanceId,
        shareInstanceId: share.instanceId,
        sizeGiB: snapshot.sizeGiB,
        usedGiB: existing.usedGiB,
      });
    }
    return {
      status: 'available',
      progress: 100,
      providerLocation: `simulated:${this.config.name}/${snapshot.snapshotInstanceId}`,
    };
  }

  deleteSnapshot({ snapshot }: SnapshotRequest): DeleteSnapshotResult {
    return { existed: this.snapshots.delete(snapshot.snapshotInstanceId) };
  }

  /**
   * Adopts a snapshot of the share: its size is the `size` driver option when given, else
   * unreported (the share's then stands in, as in Manila); the provider location is kept.
   */
  manageExistingSnapshot({
    snapshot,
    share,
    providerLocation,
    driverOptions,
  }: ManageSnapshotRequest): ManageSnapshotResult {
    const existing = this.requireShare(share.instanceId);
    const sizeGiB = driverOptions.size === undefined ? undefined : Number(driverOptions.size);
    if (sizeGiB !== undefined && (!Number.isInteger(sizeGiB) || sizeGiB < 1)) {
      throw new DriverError({
        code: 'invalid_request',
        userMessage: 'The size driver option must be a whole number of GiB.',
      });
    }
    if (!this.snapshots.has(snapshot.snapshotInstanceId)) {
      this.snapshots.set(snapshot.snapshotInstanceId, {
        snapshotInstanceId: snapshot.snapshotInstanceId,
        shareInstanceId: share.instanceId,
        sizeGiB: sizeGiB ?? existing.sizeGiB,
        usedGiB: existing.usedGiB,
      });
    }
    return { providerLocation, ...(sizeGiB !== undefined && { sizeGiB }) };
  }

  /** A simulated snapshot keeps its read-only rules; nothing mounts it here. */
  snapshotUpdateAccess({ snapshot }: SnapshotAccessRequest): void {
    if (!this.snapshots.has(snapshot.snapshotInstanceId)) {
      throw snapshotNotFound(snapshot.snapshotInstanceId);
    }
  }

  /** Forgets the snapshot; its (simulated) data is kept on the back end. */
  unmanageSnapshot({ snapshot }: SnapshotRequest): void {
    this.snapshots.delete(snapshot.snapshotInstanceId);
  }

  /** The share holds the snapshot's data again, at the snapshot's size. */
  revertToSnapshot({ snapshot, share }: SnapshotRequest): void {
    const existing = this.requireShare(share.instanceId);
    const taken = this.snapshots.get(snapshot.snapshotInstanceId);
    if (!taken || taken.shareInstanceId !== share.instanceId) {
      throw snapshotNotFound(snapshot.snapshotInstanceId);
    }
    requireAvailable(share.instanceId, existing.status, 'revert to a snapshot');
    if (taken.sizeGiB > existing.sizeGiB) {
      this.reserve(existing.pool, taken.sizeGiB - existing.sizeGiB);
    } else {
      this.release(existing.pool, existing.sizeGiB - taken.sizeGiB);
    }
    existing.sizeGiB = taken.sizeGiB;
    existing.usedGiB = taken.usedGiB ?? existing.usedGiB;
  }

  updateAccess(request: UpdateAccessRequest): UpdateAccessResult {
    const existing = this.requireShare(request.share.instanceId);
    const change = applyAccessRequest(existing.rules, request);
    existing.rules = existing.readOnly ? castReadOnly(change.rules) : [...change.rules];
    return { ruleUpdates: change.ruleUpdates };
  }

  ensureShares({ shares }: EnsureSharesRequest): EnsureSharesResult {
    return {
      shares: shares.map((share) => {
        const existing = this.shares.get(share.instanceId);
        if (!existing)
          return { instanceId: share.instanceId, outcome: 'missing', status: 'missing' };
        return { instanceId: share.instanceId, outcome: 'present', ...this.statusOf(existing) };
      }),
      // Every simulated operation is atomic, so nothing is ever left half-done.
      recovered: [],
    };
  }

  createReplica(request: CreateReplicaRequest): CreateReplicaResult {
    const replicationType = this.requireReplication();
    const active = this.shares.get(activeReplicaOf(request.replicaList).instanceId);
    if (active) requireAvailable(active.instanceId, active.status, 'add a replica');
    const existing = this.shares.get(request.newReplica.instanceId);
    const writable = replicationType === 'writable';
    const replica = existing ?? this.addShare(request.newReplica, 'available');
    replica.replicaState = writable ? 'active' : 'in_sync';
    replica.readOnly = replicationType === 'readable';
    const rules = appliedRulesFor(request.newReplica, request.accessRules, replica.readOnly);
    replica.rules = [...rules.rules];
    for (const pair of request.replicaSnapshots) {
      this.snapshots.set(pair.shareReplicaSnapshot.snapshotInstanceId, {
        snapshotInstanceId: pair.shareReplicaSnapshot.snapshotInstanceId,
        shareInstanceId: replica.instanceId,
        sizeGiB: pair.shareReplicaSnapshot.sizeGiB,
      });
    }
    return {
      exportLocations: this.exportLocationsOf(replica),
      replicaState: replica.replicaState,
      accessRulesStatus: Object.values(rules.ruleUpdates).some((u) => u.state === 'error')
        ? 'error'
        : 'active',
    };
  }

  deleteReplica({ replica }: DeleteReplicaRequest): void {
    const existing = this.shares.get(replica.instanceId);
    for (const snapshotInstanceId of this.snapshotIdsOf(replica.instanceId)) {
      this.snapshots.delete(snapshotInstanceId);
    }
    if (existing) this.removeShare(existing);
  }

  promoteReplica({
    replicaList,
    replica,
    accessRules,
  }: PromoteReplicaRequest): PromoteReplicaResult {
    const replicationType = this.requireReplication();
    const promoted = this.requireShare(replica.instanceId);
    promoted.replicaState = 'active';
    promoted.readOnly = false;
    promoted.rules = [...appliedRulesFor(replica, accessRules, false).rules];
    const others = replicaList.filter((member) => member.instanceId !== replica.instanceId);
    const otherState: ReplicaState = replicationType === 'writable' ? 'active' : 'in_sync';
    for (const member of others) {
      const local = this.shares.get(member.instanceId);
      if (!local) continue;
      local.replicaState = otherState;
      local.readOnly = replicationType === 'readable';
      local.rules = [...appliedRulesFor(member, accessRules, local.readOnly).rules];
    }
    return {
      replicas: [
        ...others.map((member) => ({ instanceId: member.instanceId, replicaState: otherState })),
        {
          instanceId: replica.instanceId,
          replicaState: 'active' as const,
          exportLocations: this.exportLocationsOf(promoted),
          accessRulesStatus: 'active' as const,
        },
      ],
    };
  }

  /** A replica is in sync once it holds every snapshot its active replica has. */
  updateReplicaState(request: UpdateReplicaStateRequest): UpdateReplicaStateResult {
    this.requireReplication();
    activeReplicaOf(request.replicaList);
    const replica = this.requireShare(request.replica.instanceId);
    if (replica.replicaState === 'error' || replica.replicaState === 'out_of_sync') {
      return { replicaState: replica.replicaState };
    }
    for (const pair of request.replicaSnapshots) {
      if (!this.snapshots.has(pair.shareReplicaSnapshot.snapshotInstanceId)) {
        this.snapshots.set(pair.shareReplicaSnapshot.snapshotInstanceId, {
          snapshotInstanceId: pair.shareReplicaSnapshot.snapshotInstanceId,
          shareInstanceId: replica.instanceId,
          sizeGiB: pair.shareReplicaSnapshot.sizeGiB,
        });
      }
    }
    replica.replicaState = 'in_sync';
    return { replicaState: 'in_sync' };
  }

  createReplicatedSnapshot(request: ReplicatedSnapshotRequest): ReplicatedSnapshotResult {
    this.requireReplication();
    const active = activeReplicaOf(request.replicaList);
    if (!this.shares.has(active.instanceId)) throw shareNotFound(active.instanceId);
    const snapshotInstances = request.replicaSnapshots.map((instance): SnapshotInstanceUpdate => {
      const onThisBackend = this.shares.has(instance.shareInstanceId);
      if (onThisBackend) {
        this.snapshots.set(instance.snapshotInstanceId, {
          usedGiB: this.shares.get(instance.shareInstanceId)?.usedGiB ?? 0,
          snapshotInstanceId: instance.snapshotInstanceId,
          shareInstanceId: instance.shareInstanceId,
          sizeGiB: instance.sizeGiB,
        });
      }
      // Instances on other back ends are finished by their updateReplicatedSnapshot poll.
      return {
        snapshotInstanceId: instance.snapshotInstanceId,
        status: onThisBackend ? 'available' : 'creating',
        progress: onThisBackend ? 100 : 0,
      };
    });
    return { snapshotInstances };
  }

  deleteReplicatedSnapshot(request: ReplicatedSnapshotRequest): ReplicatedSnapshotResult {
    this.requireReplication();
    return {
      snapshotInstances: request.replicaSnapshots.map((instance) => {
        // Instances on other back ends are deleted by their updateReplicatedSnapshot poll.
        if (!this.shares.has(instance.shareInstanceId)) {
          return { snapshotInstanceId: instance.snapshotInstanceId, status: 'deleting' };
        }
        this.snapshots.delete(instance.snapshotInstanceId);
        return { snapshotInstanceId: instance.snapshotInstanceId, status: 'deleted' };
      }),
    };
  }

  updateReplicatedSnapshot(request: UpdateReplicatedSnapshotRequest): SnapshotInstanceUpdate {
    this.requireReplication();
    const { replicaSnapshot, shareReplica } = request;
    const exists = this.snapshots.has(replicaSnapshot.snapshotInstanceId);
    if (replicaSnapshot.status === 'deleting') {
      this.snapshots.delete(replicaSnapshot.snapshotInstanceId);
      throw snapshotNotFound(replicaSnapshot.snapshotInstanceId);
    }
    if (!exists) {
      if (!this.shares.has(shareReplica.instanceId)) throw shareNotFound(shareReplica.instanceId);
      this.snapshots.set(replicaSnapshot.snapshotInstanceId, {
        snapshotInstanceId: replicaSnapshot.snapshotInstanceId,
        shareInstanceId: shareReplica.instanceId,
        sizeGiB: replicaSnapshot.sizeGiB,
      });
    }
    return {
      snapshotInstanceId: replicaSnapshot.snapshotInstanceId,
      status: 'available',
      progress: 100,
    };
  }

  /** Test knob: pretend the tenant wrote data, so shrinking can lose it. */
  setUsedGiB(instanceId: string, usedGiB: number): void {
    this.requireShare(instanceId).usedGiB = usedGiB;
  }

  /** Test knob: pretend replication broke (or healed). */
  setReplicaState(instanceId: string, replicaState: ReplicaState): void {
    this.requireShare(instanceId).replicaState = replicaState;
  }

  view(instanceId: string): SimulatedShareView | undefined {
    const share = this.shares.get(instanceId);
    if (!share) return undefined;
    return {
      instanceId,
      pool: share.pool,
      sizeGiB: share.sizeGiB,
      usedGiB: share.usedGiB,
      status: share.status,
      replicaState: share.replicaState,
      readOnly: share.readOnly,
      rules: share.rules,
      snapshotInstanceIds: this.snapshotIdsOf(instanceId),
    };
  }

  hasSnapshot(snapshotInstanceId: string): boolean {
    return this.snapshots.has(snapshotInstanceId);
  }

  private addShare(share: ShareInstanceRef, status: DriverShareStatus): SimulatedShare {
    const { pool } = ownPlacement(this.config.name, this.poolNames, share);
    checkProtocol(share, this.config.options?.protocols);
    checkSize(share.sizeGiB);
    this.reserve(pool, share.sizeGiB);
    const created: SimulatedShare = {
      shareId: share.shareId,
      instanceId: share.instanceId,
      pool,
      sizeGiB: share.sizeGiB,
      usedGiB: 0,
      status,
      pollsLeft: 0,
      pollsTotal: 0,
      replicaState: share.replicaState ?? null,
      readOnly: false,
      rules: [],
    };
    this.shares.set(share.instanceId, created);
    return created;
  }

  private removeShare(share: SimulatedShare): void {
    this.shares.delete(share.instanceId);
    this.release(share.pool, share.sizeGiB);
  }

  /** Thick pools refuse what does not fit; thin pools over-subscribe up to the ratio. */
  private reserve(poolName: string, sizeGiB: number): void {
    const pool = this.pools.get(poolName);
    if (!pool) {
      throw new DriverError({ code: 'invalid_request', userMessage: `Unknown pool ${poolName}.` });
    }
    const options = this.config.options ?? {};
    const limit = options.thinProvisioning
      ? pool.totalGiB * (options.maxOverSubscriptionRatio ?? 20)
      : pool.totalGiB;
    if (pool.allocatedGiB + sizeGiB > limit) {
      throw new DriverError({
        code: 'capacity_exceeded',
        userMessage: 'The pool does not have enough free capacity.',
        detail: `${poolName}: ${pool.allocatedGiB} + ${sizeGiB} GiB > ${limit} GiB`,
      });
    }
    pool.allocatedGiB += sizeGiB;
  }

  private release(poolName: string, sizeGiB: number): void {
    const pool = this.pools.get(poolName);
    if (pool) pool.allocatedGiB -= sizeGiB;
  }

  private requireShare(instanceId: string): SimulatedShare {
    const share = this.shares.get(instanceId);
    if (!share) throw shareNotFound(instanceId);
    return share;
  }

  private requireReplication(): ReplicationType {
    if (!this.replicationType) {
      throw new DriverError({
        code: 'unsupported',
        userMessage: 'This back end does not support replication.',
        detail: `${this.config.name} has no replication domain`,
      });
    }
    return this.replicationType;
  }

  private snapshotIdsOf(instanceId: string): string[] {
    const ids: string[] = [];
    for (const snapshot of this.snapshots.values()) {
      if (snapshot.shareInstanceId === instanceId) ids.push(snapshot.snapshotInstanceId);
    }
    return ids;
  }

  private statusOf(share: SimulatedShare): ShareStatusResult {
    if (share.status === 'creating_from_snapshot') {
      const done = share.pollsTotal - share.pollsLeft;
      return {
        status: 'creating_from_snapshot',
        progress: Math.floor((done / share.pollsTotal) * 100),
      };
    }
    return { status: share.status, progress: 100, exportLocations: this.exportLocationsOf(share) };
  }

  /** Dummy-driver-like locations: one preferred, one admin-only. */
  private exportLocationsOf(share: SimulatedShare): ExportLocation[] {
    const mountpoint = `/shares/share_${share.shareId}_${share.instanceId}`.replace(/-/g, '_');
    return [
      { path: `${this.exportAddress}:${mountpoint}`, isAdminOnly: false, preferred: true },
      { path: `admin.${this.exportAddress}:${mountpoint}`, isAdminOnly: true, preferred: false },
    ];
  }
}

function parseHostPart(backend: string): string {
  return backend.split('@')[0] ?? backend;
}
