import fs from 'node:fs/promises';
import path from 'node:path';
import { DriverError } from '../contract/driver-error.js';
import type {
  DriverOperationName,
  ExportLocation,
  ReplicationType,
  ShareInstanceRef,
} from '../contract/share-driver.js';
import { parseShareHost } from '../contract/share-host.js';
import { ownPlacement, shareNotFound } from '../common/driver-checks.js';
import type { LocalBackendConfig } from '../config/backend-config.js';
import { renderNfsExports, type ExportedShare } from './access-files.js';
import { applySambaShares, CifsExportLayer } from './exports/cifs-exports.js';
import { withExportsLock } from './exports/exports-lock.js';
import { applyGaneshaExports, NfsExportLayer } from './exports/nfs-exports.js';
import { snapshotPseudoPathOf } from './exports/ganesha-config.js';
import { isMissing, writeFileAtomic } from './json-file.js';
import { LocalLayout } from './local-layout.js';
import type { LocalShareMeta } from './local-metadata.js';
import { LocalStore } from './local-store.js';
import { detectSizeEnforcement } from './size-enforcement/detect.js';
import type { SizeEnforcementStrategy } from './size-enforcement/size-enforcement.js';
import { cloneTree, type CloneMethod } from './tree-operations.js';

/** What names an instance's export locations. */
type ExportedInstance = Pick<ShareInstanceRef, 'host' | 'instanceId' | 'protocol'>;

/** What the local driver's parts share: configuration, layout, metadata and common steps. */
export class LocalContext {
  readonly layout: LocalLayout;
  readonly store: LocalStore;
  readonly backend: string;
  readonly poolNames: readonly string[];
  readonly replicationType: ReplicationType | null;
  readonly cloneMethods = new Map<string, CloneMethod>();
  /** Per pool host, this back end's and peers' (detected when first touched). */
  private readonly enforcements = new Map<string, Promise<SizeEnforcementStrategy>>();
  private readonly exportAddress: string;
  readonly nfs: NfsExportLayer;
  readonly cifs: CifsExportLayer;

  constructor(
    readonly config: LocalBackendConfig,
    report: (message: string) => void,
  ) {
    this.layout = new LocalLayout(path.resolve(config.options.root));
    this.store = new LocalStore(this.layout);
    this.backend = config.name;
    this.poolNames = config.pools.map((pool) => pool.name);
    this.replicationType = config.replicationDomain
      ? (config.options.replicationType ?? 'readable')
      : null;
    this.exportAddress = config.options.exportAddress ?? config.name.split('@')[0] ?? config.name;
    this.nfs = new NfsExportLayer(config, this.layout, report);
    this.cifs = new CifsExportLayer(config, this.layout, report);
  }

  /** Checks that the share belongs to one of this back end's pools. */
  own(share: ShareInstanceRef): void {
    ownPlacement(this.backend, this.poolNames, share);
  }

  async requireShare(share: ShareInstanceRef): Promise<LocalShareMeta> {
    const meta = await this.store.readShare(share.host, share.instanceId);
    if (!meta) throw shareNotFound(share.instanceId);
    return meta;
  }

  requireReplication(): ReplicationType {
    if (!this.replicationType) {
      throw new DriverError({
        code: 'unsupported',
        userMessage: 'This back end does not support replication.',
        detail: `${this.backend} has no replication domain`,
      });
    }
    return this.replicationType;
  }

  /**
   * Where clients reach an instance: the NFS server's `address:/pseudo` or the CIFS server's
   * `\\address\share-<id>` when one serves its protocol, else `address:/directory`.
   */
  exportLocations({ host, instanceId, protocol }: ExportedInstance): ExportLocation[] {
    const dir = this.layout.shareDir(host, instanceId);
    const served =
      protocol === 'CIFS'
        ? this.cifs.exportLocation(instanceId)
        : this.nfs.exportLocation(instanceId);
    if (served) return [served, { path: dir, isAdminOnly: true, preferred: false }];
    return [
      { path: `${this.exportAddress}:${dir}`, isAdminOnly: false, preferred: true },
      { path: dir, isAdminOnly: true, preferred: false },
    ];
  }

  /**
   * Where clients mount a snapshot instance (2.32): the NFS server's `address:/snapshot-<id>`
   * when one serves NFS, else `address:/directory`; the directory itself for admins. Clients
   * get it read-only (its rules are cast to `ro`).
   */
  snapshotExportLocations(host: string, snapshotInstanceId: string): ExportLocation[] {
    const dir = this.layout.snapshotDir(host, snapshotInstanceId);
    const served = this.nfs.exportLocation(
      snapshotInstanceId,
      snapshotPseudoPathOf(snapshotInstanceId),
    );
    return [
      served ?? { path: `${this.exportAddress}:${dir}`, isAdminOnly: false, preferred: true },
      { path: dir, isAdminOnly: true, preferred: false },
    ];
  }

  /** How the pool of `host` holds shares to their size. */
  enforcementFor(host: string): Promise<SizeEnforcementStrategy> {
    let found = this.enforcements.get(host);
    if (!found) {
      found = detectSizeEnforcement(this.layout.poolDir(host));
      this.enforcements.set(host, found);
      found.catch(() => this.enforcements.delete(host));
    }
    return found;
  }

  /** An empty share directory, limited to the share's size where the pool enforces sizes. */
  async prepareShareDir(share: ShareInstanceRef): Promise<string> {
    const dir = this.layout.shareDir(share.host, share.instanceId);
    await (await this.enforcementFor(share.host)).prepare(dir, share.sizeGiB);
    return dir;
  }

  async removeShareDir(host: string, instanceId: string): Promise<void> {
    await (await this.enforcementFor(host)).remove(this.layout.shareDir(host, instanceId));
  }

  async removeSnapshotDir(host: string, snapshotInstanceId: string): Promise<void> {
    await (
      await this.enforcementFor(host)
    ).remove(this.layout.snapshotDir(host, snapshotInstanceId));
  }

  /**
   * A point-in-time copy of `source` at `target` in the pool of `targetHost`: the file
   * system's snapshot where the pool has one, else a reflink, else a plain copy (each falls
   * back to the next, e.g. across file systems).
   */
  async snapshotTree(source: string, target: string, targetHost: string): Promise<CloneMethod> {
    const enforcement = await this.enforcementFor(targetHost);
    const method = this.cloneMethods.get(targetHost) ?? 'copy';
    if (enforcement.snapshot) {
      try {
        await enforcement.snapshot(source, target);
        return 'subvolume';
      } catch {
        await enforcement.remove(target);
      }
    }
    return this.copyTree(source, target, method, () => enforcement.remove(target));
  }

  /** A new share holding a copy of a snapshot, in the snapshot's pool, limited to its size. */
  async cloneIntoShare(source: string, share: ShareInstanceRef): Promise<void> {
    const enforcement = await this.enforcementFor(share.host);
    const target = this.layout.shareDir(share.host, share.instanceId);
    if (enforcement.cloneShare) {
      try {
        await enforcement.cloneShare(source, target, share.sizeGiB);
        return;
      } catch {
        await enforcement.remove(target);
      }
    }
    const prepare = (): Promise<void> => enforcement.prepare(target, share.sizeGiB);
    await prepare();
    await this.copyTree(source, target, this.cloneMethods.get(share.host) ?? 'copy', async () => {
      await enforcement.remove(target);
      await prepare();
    });
  }

  /** Reflinks unless the pool copies, else (or when that fails, after `reset`) copies. */
  private async copyTree(
    source: string,
    target: string,
    method: CloneMethod,
    reset: () => Promise<void>,
  ): Promise<CloneMethod> {
    if (method !== 'copy') {
      try {
        await cloneTree(source, target, 'reflink');
        return 'reflink';
      } catch {
        await reset();
      }
    }
    await cloneTree(source, target, 'copy');
    return 'copy';
  }

  /**
   * Runs work that cannot finish atomically between writing and removing its marker. When the
   * work fails, `undo` cleans up at once; without one (deletions) the marker stays and the next
   * ensureShares finishes the job.
   */
  async withMarker<T>(
    operation: DriverOperationName,
    commandId: string,
    resourceId: string,
    request: unknown,
    work: () => Promise<T>,
    undo?: () => Promise<void>,
  ): Promise<T> {
    await this.store.writeMarker(this.backend, {
      operation,
      commandId,
      resourceId,
      request,
      startedAt: new Date().toISOString(),
    });
    let result: T;
    try {
      result = await work();
    } catch (error) {
      if (undo) {
        await undo();
        await this.store.removeMarker(this.backend, operation, resourceId);
      }
      throw error;
    }
    await this.store.removeMarker(this.backend, operation, resourceId);
    return result;
  }

  /**
   * Regenerates a back end's exports file and Samba share sections from its shares' metadata,
   * and brings its NFS and CIFS servers to match where they serve it.
   */
  async rewriteAccessFiles(backend: string): Promise<void> {
    const lockDir = this.layout.exportsLockDir(backend);
    await this.store.withBackendLock(backend, () =>
      withExportsLock(lockDir, backend, () => this.writeAccessFiles(backend)),
    );
  }

  private async writeAccessFiles(backend: string): Promise<void> {
    const hosts = await this.poolHostsOf(backend);
    const metas = await this.store.listShares(hosts);
    const exported: ExportedShare[] = metas
      .filter((meta) => meta.status !== 'error' && !this.hiddenReplica(meta))
      .map((meta) => ({ dir: this.layout.shareDir(meta.host, meta.instanceId), meta }));
    const snapshots = await this.exportedSnapshots(hosts, metas);
    await writeFileAtomic(
      this.layout.exportsFile(backend),
      renderNfsExports([...exported, ...snapshots]),
    );
    await applySambaShares(this.layout, backend, exported);
    await applyGaneshaExports(this.layout, backend, [...exported, ...snapshots]);
  }

  /**
   * Snapshots of NFS shares with read-only rules (mountable snapshots, 2.32), each exported as
   * its own directory under its own pseudo path, every rule cast to `ro`.
   */
  private async exportedSnapshots(
    hosts: readonly string[],
    shares: readonly LocalShareMeta[],
  ): Promise<ExportedShare[]> {
    const exported: ExportedShare[] = [];
    for (const host of hosts) {
      for (const snapshot of await this.store.listSnapshots(host)) {
        const share = shares.find((s) => s.instanceId === snapshot.shareInstanceId);
        if (!share || share.protocol !== 'NFS' || !snapshot.rules?.length) continue;
        exported.push({
          dir: this.layout.snapshotDir(host, snapshot.snapshotInstanceId),
          meta: {
            ...share,
            instanceId: snapshot.snapshotInstanceId,
            readOnly: true,
            rules: snapshot.rules.map((rule) => ({ ...rule, accessLevel: 'ro' })),
          },
          pseudo: snapshotPseudoPathOf(snapshot.snapshotInstanceId),
        });
      }
    }
    return exported;
  }

  /** Pools of any back end under the root, read from disk so peers' pools are found too. */
  async poolHostsOf(backend: string): Promise<string[]> {
    if (backend === this.backend) return this.poolNames.map((pool) => `${backend}#${pool}`);
    try {
      const entries = await fs.readdir(this.layout.backendDir(backend), { withFileTypes: true });
      return entries
        .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
        .map((entry) => `${backend}#${entry.name}`);
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
  }

  backendOf(host: string): string {
    return parseShareHost(host).backend;
  }

  /** Non-active replicas of a `dr` back end are not exported at all (reference 5.2). */
  private hiddenReplica(meta: LocalShareMeta): boolean {
    return (
      this.replicationType === 'dr' && meta.replicaState !== null && meta.replicaState !== 'active'
    );
  }
}
