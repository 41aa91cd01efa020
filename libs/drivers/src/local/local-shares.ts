import { DriverError } from '../contract/driver-error.js';
import type {
  CreateShareFromSnapshotRequest,
  CreateShareFromSnapshotResult,
  CreateShareRequest,
  CreateShareResult,
  CreateSnapshotResult,
  DeleteShareRequest,
  DeleteShareResult,
  DeleteSnapshotResult,
  ResizeShareRequest,
  ShareInstanceRef,
  ShareStatusResult,
  SnapshotRequest,
  UpdateAccessRequest,
  UpdateAccessResult,
} from '../contract/share-driver.js';
import { applyAccessRequest, castReadOnly } from '../common/access-rules.js';
import {
  checkProtocol,
  checkSize,
  requireAvailable,
  shareNotFound,
  snapshotNotFound,
} from '../common/driver-checks.js';
import type { CopyJobs } from './copy-jobs.js';
import type { LocalContext } from './local-context.js';
import type { LocalShareMeta } from './local-metadata.js';
import { GIB } from './size-enforcement/size-enforcement.js';
import { exists, measureTree } from './tree-operations.js';

/** Shares and snapshots of the local driver: directories, copies and metadata. */
export class LocalShares {
  constructor(
    private readonly context: LocalContext,
    private readonly copies: CopyJobs,
  ) {}

  async createShare({ commandId, share }: CreateShareRequest): Promise<CreateShareResult> {
    this.checkNewShare(share);
    const { store } = this.context;
    return store.withShareLock(share.host, share.instanceId, async () => {
      if (!(await store.readShare(share.host, share.instanceId))) {
        await this.checkCapacity(share.host, share.sizeGiB);
        await this.context.withMarker('createShare', commandId, share.instanceId, { share }, () =>
          this.materialise(share, commandId),
        );
      }
      return { exportLocations: this.context.exportLocations(share) };
    });
  }

  /** The directory and metadata of a new empty share (also used to finish a crashed create). */
  async materialise(share: ShareInstanceRef, commandId: string): Promise<void> {
    await this.context.prepareShareDir(share);
    await this.context.store.writeShare(newMeta(share, commandId, 'available'));
  }

  async deleteShare({ commandId, share }: DeleteShareRequest): Promise<DeleteShareResult> {
    this.context.own(share);
    const { store, layout } = this.context;
    const snapshots = await store.listSnapshots(share.host);
    if (snapshots.some((snapshot) => snapshot.shareInstanceId === share.instanceId)) {
      throw new DriverError({
        code: 'invalid_request',
        userMessage: 'The share still has snapshots.',
        detail: `share instance ${share.instanceId}`,
      });
    }
    await this.copies.stop(share.instanceId);
    const existed = await store.withShareLock(share.host, share.instanceId, async () => {
      const meta = await store.readShare(share.host, share.instanceId);
      const dir = layout.shareDir(share.host, share.instanceId);
      if (!meta && !(await exists(dir))) return false;
      await this.context.withMarker('deleteShare', commandId, share.instanceId, { share }, () =>
        this.destroy(share),
      );
      return meta !== null;
    });
    if (existed) await this.context.rewriteAccessFiles(this.context.backend);
    return { existed };
  }

  /** Removes a share's data, metadata and any unfinished-creation marker. */
  async destroy(share: ShareInstanceRef): Promise<void> {
    const { store, backend } = this.context;
    await this.context.removeShareDir(share.host, share.instanceId);
    await store.removeShare(share.host, share.instanceId);
    await store.removeMarker(backend, 'createShareFromSnapshot', share.instanceId);
  }

  async createSnapshot({
    commandId,
    snapshot,
    share,
  }: SnapshotRequest): Promise<CreateSnapshotResult> {
    this.context.own(share);
    const { store, layout } = this.context;
    const shareMeta = await this.context.requireShare(share);
    const target = layout.snapshotDir(share.host, snapshot.snapshotInstanceId);
    const existing = await store.readSnapshot(share.host, snapshot.snapshotInstanceId);
    if (!existing) requireAvailable(share.instanceId, shareMeta.status, 'take a snapshot');
    const meta =
      existing ??
      (await this.context.withMarker(
        'createSnapshot',
        commandId,
        snapshot.snapshotInstanceId,
        { snapshot, share },
        async () => {
          const method = await this.context.snapshotTree(
            layout.shareDir(share.host, share.instanceId),
            target,
            share.host,
          );
          const created = {
            snapshotId: snapshot.snapshotId,
            snapshotInstanceId: snapshot.snapshotInstanceId,
            shareInstanceId: share.instanceId,
            host: share.host,
            sizeGiB: snapshot.sizeGiB,
            method,
            commandId,
          };
          await store.writeSnapshot(created);
          return created;
        },
        () => this.context.removeSnapshotDir(share.host, snapshot.snapshotInstanceId),
      ));
    return {
      status: 'available',
      progress: 100,
      providerLocation: `${meta.method}:${target}`,
      exportLocations: this.context.snapshotExportLocations(
        share.host,
        snapshot.snapshotInstanceId,
      ),
    };
  }

  async deleteSnapshot({
    commandId,
    snapshot,
    share,
  }: SnapshotRequest): Promise<DeleteSnapshotResult> {
    this.context.own(share);
    const { store, layout } = this.context;
    const meta = await store.readSnapshot(share.host, snapshot.snapshotInstanceId);
    const dir = layout.snapshotDir(share.host, snapshot.snapshotInstanceId);
    if (!meta && !(await exists(dir))) return { existed: false };
    await this.context.withMarker(
      'deleteSnapshot',
      commandId,
      snapshot.snapshotInstanceId,
      { snapshot, share },
      async () => {
        await this.context.removeSnapshotDir(share.host, snapshot.snapshotInstanceId);
        await store.removeSnapshot(share.host, snapshot.snapshotInstanceId);
      },
    );
    // A mounted snapshot is no longer served once it is gone.
    if (meta?.rules?.length) await this.context.rewriteAccessFiles(this.context.backend);
    return { existed: meta !== null };
  }

  /**
   * Same pool: a synchronous clone. Another pool or back end: a background copy with true
   * byte progress; the answer is `creating_from_snapshot` until it is done.
   */
  async createShareFromSnapshot(
    request: CreateShareFromSnapshotRequest,
  ): Promise<CreateShareFromSnapshotResult> {
    const { commandId, share, snapshot, parentShare } = request;
    this.checkNewShare(share);
    const { store, layout } = this.context;
    return store.withShareLock(share.host, share.instanceId, async () => {
      const existing = await store.readShare(share.host, share.instanceId);
      if (existing) return (await this.statusOf(existing)) as CreateShareFromSnapshotResult;
      const snapshotMeta = await store.readSnapshot(parentShare.host, snapshot.snapshotInstanceId);
      if (!snapshotMeta) throw snapshotNotFound(snapshot.snapshotInstanceId);
      if (share.sizeGiB < snapshotMeta.sizeGiB) {
        throw new DriverError({
          code: 'invalid_request',
          userMessage: 'The new share is smaller than the snapshot.',
        });
      }
      await this.checkCapacity(share.host, share.sizeGiB);
      const source = layout.snapshotDir(parentShare.host, snapshot.snapshotInstanceId);
      const target = layout.shareDir(share.host, share.instanceId);
      if (share.host === parentShare.host) {
        await this.context.withMarker(
          'createShareFromSnapshot',
          commandId,
          share.instanceId,
          request,
          async () => {
            await this.context.cloneIntoShare(source, share);
            await store.writeShare(newMeta(share, commandId, 'available'));
          },
          () => this.destroy(share),
        );
        return {
          status: 'available',
          progress: 100,
          exportLocations: this.context.exportLocations(share),
        };
      }
      const { bytes } = await measureTree(source);
      // This marker outlives the call: the background copy removes it when it ends.
      await store.writeMarker(this.context.backend, {
        operation: 'createShareFromSnapshot',
        commandId,
        resourceId: share.instanceId,
        request,
        startedAt: new Date().toISOString(),
      });
      await this.context.prepareShareDir(share);
      await store.writeShare({
        ...newMeta(share, commandId, 'creating_from_snapshot'),
        copySource: { dir: source, totalBytes: bytes },
      });
      this.startCopy(share, source, target, bytes);
      return { status: 'creating_from_snapshot', progress: 0 };
    });
  }

  /** Starts (or resumes: identical files are skipped) the background copy of a share. */
  startCopy(share: ShareInstanceRef, source: string, target: string, totalBytes: number): void {
    const { store, backend } = this.context;
    this.copies.start(share.instanceId, source, target, totalBytes, async (error) => {
      await store.updateShare(share.host, share.instanceId, (meta) => {
        const { copySource: _done, ...rest } = meta;
        return error
          ? { ...rest, status: 'error', errorMessage: 'Copying the snapshot data failed.' }
          : { ...rest, status: 'available' };
      });
      await store.removeMarker(backend, 'createShareFromSnapshot', share.instanceId);
    });
  }

  async getShareStatus(share: ShareInstanceRef): Promise<ShareStatusResult> {
    this.context.own(share);
    let meta = await this.context.requireShare(share);
    if (meta.status === 'creating_from_snapshot' && !this.copies.isRunning(share.instanceId)) {
      // The copy may have ended while the metadata was being read; a copy records its outcome
      // before it leaves the job table, so a second read is final. Only then resume a copy
      // that is really not running (after a restart), never restart a finished one.
      meta = await this.context.requireShare(share);
      if (
        meta.status === 'creating_from_snapshot' &&
        meta.copySource &&
        !this.copies.isRunning(share.instanceId)
      ) {
        const target = this.context.layout.shareDir(share.host, share.instanceId);
        this.startCopy(share, meta.copySource.dir, target, meta.copySource.totalBytes);
      }
    }
    return this.statusOf(meta);
  }

  async statusOf(meta: LocalShareMeta): Promise<ShareStatusResult> {
    if (meta.status === 'creating_from_snapshot') {
      return {
        status: 'creating_from_snapshot',
        progress: this.copies.progress(meta.instanceId)?.percent ?? 0,
      };
    }
    if (meta.status === 'error') {
      return {
        status: 'error',
        progress: 0,
        ...(meta.errorMessage ? { errorMessage: meta.errorMessage } : {}),
      };
    }
    const enforcement = await this.context.enforcementFor(meta.host);
    const dir = this.context.layout.shareDir(meta.host, meta.instanceId);
    const { usedBytes, enforced } = await enforcement.usage(dir);
    const limitBytes = meta.sizeGiB * GIB;
    return {
      status: 'available',
      progress: 100,
      exportLocations: this.context.exportLocations(meta),
      usage: {
        usedBytes,
        limitBytes,
        overLimit: usedBytes > limitBytes,
        enforcement: enforced ? 'enforced' : 'reported',
        strategy: enforced ? enforcement.description.strategy : 'reported',
      },
    };
  }

  async extendShare({ share, newSizeGiB }: ResizeShareRequest): Promise<void> {
    this.context.own(share);
    checkSize(newSizeGiB);
    await this.resize(share, async (meta) => {
      if (newSizeGiB < meta.sizeGiB) {
        throw new DriverError({
          code: 'invalid_request',
          userMessage: 'The new size must be larger than the current size.',
        });
      }
      await this.checkCapacity(share.host, newSizeGiB - meta.sizeGiB);
      return newSizeGiB;
    });
  }

  async shrinkShare({ share, newSizeGiB }: ResizeShareRequest): Promise<void> {
    this.context.own(share);
    checkSize(newSizeGiB);
    await this.resize(share, async (meta) => {
      if (newSizeGiB > meta.sizeGiB) {
        throw new DriverError({
          code: 'invalid_request',
          userMessage: 'The new size must be smaller than the current size.',
        });
      }
      const dir = this.context.layout.shareDir(share.host, share.instanceId);
      const { usedBytes } = await (await this.context.enforcementFor(share.host)).usage(dir);
      if (usedBytes > newSizeGiB * GIB) {
        throw new DriverError({
          code: 'shrinking_possible_data_loss',
          userMessage: 'The share holds more data than the requested size.',
          detail: `${usedBytes} bytes used, ${newSizeGiB} GiB requested`,
        });
      }
      return newSizeGiB;
    });
  }

  async updateAccess(request: UpdateAccessRequest): Promise<UpdateAccessResult> {
    const { share } = request;
    this.context.own(share);
    let ruleUpdates: UpdateAccessResult['ruleUpdates'] = {};
    let previousRules: LocalShareMeta['rules'] = [];
    let wantedRules: LocalShareMeta['rules'] = [];
    const updated = await this.context.store.updateShare(share.host, share.instanceId, (meta) => {
      const change = applyAccessRequest(meta.rules, request);
      ruleUpdates = change.ruleUpdates;
      previousRules = meta.rules;
      wantedRules = meta.readOnly ? castReadOnly(change.rules) : change.rules;
      return { ...meta, rules: wantedRules };
    });
    if (!updated) throw shareNotFound(share.instanceId);
    try {
      await this.context.rewriteAccessFiles(this.context.backend);
    } catch (error) {
      if (!isServerRefusal(error)) {
        // The server kept the previous rules: so does the metadata it is rebuilt from.
        await this.setRules(share, previousRules);
        throw error;
      }
      const refused = await this.addRulesOneByOne(share, previousRules, wantedRules);
      ruleUpdates = {
        ...ruleUpdates,
        ...Object.fromEntries(refused.map((accessId) => [accessId, { state: 'error' as const }])),
      };
    }
    return { ruleUpdates };
  }

  /**
   * After the server refused a rule set: the rules kept from before, then each new rule on its
   * own, so the rules it refuses go to `error` and the others still apply. Returns the refused.
   */
  private async addRulesOneByOne(
    share: ShareInstanceRef,
    previous: LocalShareMeta['rules'],
    wanted: LocalShareMeta['rules'],
  ): Promise<string[]> {
    const before = new Set(previous.map((rule) => rule.accessId));
    let applied = wanted.filter((rule) => before.has(rule.accessId));
    try {
      await this.setRules(share, applied);
    } catch (error) {
      await this.setRules(share, previous);
      throw error;
    }
    const refused: string[] = [];
    for (const rule of wanted.filter((candidate) => !before.has(candidate.accessId))) {
      try {
        await this.setRules(share, [...applied, rule]);
        applied = [...applied, rule];
      } catch (error) {
        if (!isServerRefusal(error)) throw error;
        refused.push(rule.accessId);
        await this.setRules(share, applied);
      }
    }
    return refused;
  }

  private async setRules(share: ShareInstanceRef, rules: LocalShareMeta['rules']): Promise<void> {
    await this.context.store.updateShare(share.host, share.instanceId, (meta) => ({
      ...meta,
      rules,
    }));
    await this.context.rewriteAccessFiles(this.context.backend);
  }

  private async resize(
    share: ShareInstanceRef,
    decide: (meta: LocalShareMeta) => Promise<number>,
  ): Promise<void> {
    const updated = await this.context.store.updateShare(
      share.host,
      share.instanceId,
      async (meta) => {
        const sizeGiB = await decide(meta);
        await this.applyLimit({ ...meta, sizeGiB });
        return { ...meta, sizeGiB };
      },
    );
    if (!updated) throw shareNotFound(share.instanceId);
  }

  /** Sets the share's limit from its metadata (resizes, and again at start-up after a crash). */
  async applyLimit(meta: LocalShareMeta): Promise<void> {
    const dir = this.context.layout.shareDir(meta.host, meta.instanceId);
    await (await this.context.enforcementFor(meta.host)).setLimit(dir, meta.sizeGiB);
  }

  private checkNewShare(share: ShareInstanceRef): void {
    this.context.own(share);
    checkProtocol(share, this.context.config.options.protocols);
    checkSize(share.sizeGiB);
  }

  /** Thick pools with a configured size refuse allocations past it; thin pools accept. */
  private async checkCapacity(host: string, extraGiB: number): Promise<void> {
    const options = this.context.config.options;
    if (options.thinProvisioning ?? true) return;
    const pool = this.context.config.pools.find((entry) => host.endsWith(`#${entry.name}`));
    if (!pool?.totalCapacityGb) return;
    const allocated = (await this.context.store.listShares([host])).reduce(
      (sum, meta) => sum + meta.sizeGiB,
      0,
    );
    if (allocated + extraGiB > pool.totalCapacityGb) {
      throw new DriverError({
        code: 'capacity_exceeded',
        userMessage: 'The pool does not have enough free capacity.',
        detail: `${host}: ${allocated} + ${extraGiB} GiB > ${pool.totalCapacityGb} GiB`,
      });
    }
  }
}

export function newMeta(
  share: ShareInstanceRef,
  commandId: string,
  status: LocalShareMeta['status'],
): LocalShareMeta {
  return {
    shareId: share.shareId,
    instanceId: share.instanceId,
    host: share.host,
    protocol: share.protocol,
    sizeGiB: share.sizeGiB,
    status,
    replicaState: share.replicaState ?? null,
    readOnly: false,
    rules: [],
    commandId,
  };
}

/** The export server refused the rules it was given (and kept the ones it had). */
function isServerRefusal(error: unknown): boolean {
  return error instanceof DriverError && error.code === 'invalid_access';
}
