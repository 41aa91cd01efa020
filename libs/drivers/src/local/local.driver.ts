import fs from 'node:fs/promises';
import { Logger } from '@nestjs/common';
import type {
  MigrationCompatibility,
  MigrationRequest,
  MigrationStartRequest,
  BackendStatsReport,
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
  EnsureSharesRequest,
  EnsureSharesResult,
  EnsuredShare,
  NetworkExports,
  GetPoolStatsRequest,
  GetShareStatusRequest,
  ManageShareRequest,
  ManageShareResult,
  ManageSnapshotRequest,
  ManageSnapshotResult,
  SnapshotAccessRequest,
  UnmanageShareRequest,
  PromoteReplicaRequest,
  PromoteReplicaResult,
  ReplicatedSnapshotRequest,
  ReplicatedSnapshotResult,
  ResizeShareRequest,
  ShareDriver,
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
import type { AppliedAccessRule } from '../common/access-rules.js';
import type { LocalBackendConfig } from '../config/backend-config.js';
import { BackendLock } from './backend-lock.js';
import { CopyJobs } from './copy-jobs.js';
import { LocalContext } from './local-context.js';
import { measurePoolStats } from './local-pool-stats.js';
import { LocalRecovery } from './local-recovery.js';
import { LocalReplication } from './local-replication.js';
import { LocalReverts } from './local-revert.js';
import { LocalManage } from './local-manage.js';
import { LocalSnapshotManage } from './local-snapshot-manage.js';
import { LocalSnapshotAccess } from './local-snapshot-access.js';
import { LocalShares } from './local-shares.js';
import { LocalMigrations } from './local-migration.js';
import type { SizeEnforcement } from './size-enforcement/size-enforcement.js';
import { probeReflink, type CloneMethod } from './tree-operations.js';

const logger = new Logger('driver');

/**
 * Shares as directories under a root, with real data: snapshots are reflinked or copied,
 * copies across pools run in the background with byte progress, replicas are kept in sync
 * by copying changes, access rules go to an exports file and, where configured, to the NFS-Ganesha
 * and smbd that serve the shares. See the lib README for what is and is not enforced.
 */
export class LocalShareDriver implements ShareDriver {
  readonly backend: string;
  readonly availabilityZone: string;
  readonly poolNames: readonly string[];

  private readonly context: LocalContext;
  private readonly copies: CopyJobs;
  private readonly shares: LocalShares;
  private readonly replication: LocalReplication;
  private readonly recovery: LocalRecovery;
  private readonly reverts: LocalReverts;
  private readonly manage: LocalManage;
  private readonly snapshotManage: LocalSnapshotManage;
  private readonly snapshotAccess: LocalSnapshotAccess;
  private readonly migrations: LocalMigrations;
  private lock: BackendLock | null = null;

  constructor(
    config: LocalBackendConfig,
    report: (message: string) => void = (message) =>
      logger.warn({ msg: `${config.name}: ${message}`, backend: config.name }),
  ) {
    this.context = new LocalContext(config, report);
    this.backend = config.name;
    this.availabilityZone = config.availabilityZone;
    this.poolNames = this.context.poolNames;
    this.copies = new CopyJobs({
      ...(config.options.copyChunkBytes ? { chunkBytes: config.options.copyChunkBytes } : {}),
      ...(config.options.copyBytesPerSecond
        ? { bytesPerSecond: config.options.copyBytesPerSecond }
        : {}),
    });
    this.shares = new LocalShares(this.context, this.copies);
    this.replication = new LocalReplication(this.context, this.copies);
    this.reverts = new LocalReverts(this.context);
    this.manage = new LocalManage(this.context);
    this.snapshotManage = new LocalSnapshotManage(this.context, this.manage);
    this.snapshotAccess = new LocalSnapshotAccess(this.context);
    this.recovery = new LocalRecovery(this.context, this.shares, this.replication, this.reverts);
    this.migrations = new LocalMigrations(this.context, this.shares);
  }

  /**
   * Locks the back end against other processes and driver instances (a DriverError naming the
   * holder when it is taken), creates the pool directories and finds out what each pool's file
   * system offers.
   */
  async initialize(): Promise<void> {
    if (this.lock) return;
    this.lock = await BackendLock.acquire(this.context.layout.lockDir(this.backend), this.backend);
    try {
      await this.preparePools();
      const rewrite = () => this.context.rewriteAccessFiles(this.backend);
      await this.context.nfs.start(rewrite);
      await this.context.cifs.start(rewrite);
    } catch (error) {
      await this.context.nfs.stop();
      await this.context.cifs.stop();
      await this.releaseLock();
      throw error;
    }
  }

  /** Stops background copies (their markers stay, so the next start resumes them), then unlocks. */
  async close(): Promise<void> {
    try {
      await this.copies.stopAll();
      await this.context.nfs.stop();
      await this.context.cifs.stop();
    } finally {
      await this.releaseLock();
    }
  }

  /** Whether NFS and CIFS shares are served over the network, and why not when they are not. */
  networkExports(): readonly NetworkExports[] {
    return [this.context.nfs.serving, this.context.cifs.serving];
  }

  /**
   * How snapshots are taken in each pool: `subvolume` (btrfs snapshot), `reflink` (shared
   * blocks) or `copy` (new blocks).
   */
  cloneMethod(pool: string): CloneMethod | undefined {
    return this.context.cloneMethods.get(`${this.backend}#${pool}`);
  }

  /** Whether a pool enforces share sizes or only reports them, how, and why. */
  async sizeEnforcement(pool: string): Promise<SizeEnforcement> {
    return (await this.context.enforcementFor(`${this.backend}#${pool}`)).description;
  }

  /** Absolute data directory of a share instance on any local back end under the root. */
  shareDirectory(host: string, instanceId: string): string {
    return this.context.layout.shareDir(host, instanceId);
  }

  /** The rules enforced for a share, as stored in its metadata. */
  async appliedRules(share: ShareInstanceRef): Promise<readonly AppliedAccessRule[]> {
    return (await this.context.requireShare(share)).rules;
  }

  exportsFile(): string {
    return this.context.layout.exportsFile(this.backend);
  }

  /** Resolves when the background copy of an instance (if any) has ended. */
  waitForCopy(instanceId: string): Promise<void> {
    return this.copies.wait(instanceId);
  }

  createShare(request: CreateShareRequest): Promise<CreateShareResult> {
    return this.shares.createShare(request);
  }

  deleteShare(request: DeleteShareRequest): Promise<DeleteShareResult> {
    return this.shares.deleteShare(request);
  }

  createShareFromSnapshot(
    request: CreateShareFromSnapshotRequest,
  ): Promise<CreateShareFromSnapshotResult> {
    return this.shares.createShareFromSnapshot(request);
  }

  migrationCheckCompatibility(request: MigrationRequest): Promise<MigrationCompatibility> {
    return this.migrations.checkCompatibility(request);
  }

  migrationStart(request: MigrationStartRequest): Promise<ShareStatusResult> {
    return this.migrations.start(request);
  }

  getShareStatus(request: GetShareStatusRequest): Promise<ShareStatusResult> {
    return this.shares.getShareStatus(request.share);
  }

  extendShare(request: ResizeShareRequest): Promise<void> {
    return this.shares.extendShare(request);
  }

  shrinkShare(request: ResizeShareRequest): Promise<void> {
    return this.shares.shrinkShare(request);
  }

  createSnapshot(request: SnapshotRequest): Promise<CreateSnapshotResult> {
    return this.shares.createSnapshot(request);
  }

  deleteSnapshot(request: SnapshotRequest): Promise<DeleteSnapshotResult> {
    return this.shares.deleteSnapshot(request);
  }

  revertToSnapshot(request: SnapshotRequest): Promise<void> {
    return this.reverts.revertToSnapshot(request);
  }

  manageExisting(request: ManageShareRequest): Promise<ManageShareResult> {
    return this.manage.manageExisting(request);
  }

  unmanage(request: UnmanageShareRequest): Promise<void> {
    return this.manage.unmanage(request);
  }

  manageExistingSnapshot(request: ManageSnapshotRequest): Promise<ManageSnapshotResult> {
    return this.snapshotManage.manageExistingSnapshot(request);
  }

  unmanageSnapshot(request: SnapshotRequest): Promise<void> {
    return this.snapshotManage.unmanageSnapshot(request);
  }

  snapshotUpdateAccess(request: SnapshotAccessRequest): Promise<void> {
    return this.snapshotAccess.snapshotUpdateAccess(request);
  }

  updateAccess(request: UpdateAccessRequest): Promise<UpdateAccessResult> {
    return this.shares.updateAccess(request);
  }

  /** Finishes or undoes half-done work first, then reports each share the service expects. */
  async ensureShares({ shares }: EnsureSharesRequest): Promise<EnsureSharesResult> {
    const recovered = await this.recovery.recoverAll();
    await this.recovery.reapplyLimits();
    const resolutionOf = new Map(recovered.map((entry) => [entry.resourceId, entry.resolution]));
    const ensured: EnsuredShare[] = [];
    for (const share of shares) {
      const resolution = resolutionOf.get(share.instanceId);
      const meta = this.ownsHost(share.host)
        ? await this.context.store.readShare(share.host, share.instanceId)
        : null;
      if (!meta) {
        ensured.push({
          instanceId: share.instanceId,
          outcome: resolution === 'rolled_back' ? 'rolled_back' : 'missing',
          status: 'missing',
        });
        continue;
      }
      ensured.push({
        instanceId: share.instanceId,
        // A rolled-back step of a share that still exists (a replica sync) leaves it present.
        outcome: resolution === undefined || resolution === 'rolled_back' ? 'present' : resolution,
        ...(await this.shares.statusOf(meta)),
      });
    }
    return { shares: ensured, recovered };
  }

  createReplica(request: CreateReplicaRequest): Promise<CreateReplicaResult> {
    return this.replication.createReplica(request);
  }

  deleteReplica(request: DeleteReplicaRequest): Promise<void> {
    return this.replication.deleteReplica(request);
  }

  promoteReplica(request: PromoteReplicaRequest): Promise<PromoteReplicaResult> {
    return this.replication.promoteReplica(request);
  }

  updateReplicaState(request: UpdateReplicaStateRequest): Promise<UpdateReplicaStateResult> {
    return this.replication.updateReplicaState(request);
  }

  createReplicatedSnapshot(request: ReplicatedSnapshotRequest): Promise<ReplicatedSnapshotResult> {
    return this.replication.createReplicatedSnapshot(request);
  }

  deleteReplicatedSnapshot(request: ReplicatedSnapshotRequest): Promise<ReplicatedSnapshotResult> {
    return this.replication.deleteReplicatedSnapshot(request);
  }

  updateReplicatedSnapshot(
    request: UpdateReplicatedSnapshotRequest,
  ): Promise<SnapshotInstanceUpdate> {
    return this.replication.updateReplicatedSnapshot(request);
  }

  async getPoolStats(_request: GetPoolStatsRequest): Promise<BackendStatsReport> {
    return {
      backend: this.backend,
      availabilityZone: this.availabilityZone,
      pools: await measurePoolStats(this.context, new Date()),
    };
  }

  private async releaseLock(): Promise<void> {
    const lock = this.lock;
    this.lock = null;
    await lock?.release();
  }

  /** Creates the pool directories and finds out what each pool's file system offers. */
  private async preparePools(): Promise<void> {
    const { layout } = this.context;
    for (const pool of this.poolNames) {
      const host = `${this.backend}#${pool}`;
      for (const dir of [
        `${layout.poolDir(host)}/shares`,
        `${layout.poolDir(host)}/snapshots`,
        layout.shareMetaDir(host),
        layout.snapshotMetaDir(host),
      ]) {
        await fs.mkdir(dir, { recursive: true });
      }
      const enforcement = await this.context.enforcementFor(host);
      this.context.cloneMethods.set(
        host,
        enforcement.snapshot ? 'subvolume' : await probeReflink(layout.poolDir(host)),
      );
    }
    await fs.mkdir(layout.markersDir(this.backend), { recursive: true });
  }

  private ownsHost(host: string): boolean {
    try {
      const placement = parseShareHost(host);
      return placement.backend === this.backend && this.poolNames.includes(placement.pool);
    } catch {
      return false;
    }
  }
}
