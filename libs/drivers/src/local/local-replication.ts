import { DriverError } from '../contract/driver-error.js';
import type {
  AccessRule,
  CreateReplicaRequest,
  CreateReplicaResult,
  DeleteReplicaRequest,
  PromoteReplicaRequest,
  PromoteReplicaResult,
  ReplicaSnapshotPair,
  ReplicaUpdate,
  ReplicatedSnapshotRequest,
  ReplicatedSnapshotResult,
  ShareInstanceRef,
  SnapshotInstanceRef,
  SnapshotInstanceUpdate,
  UpdateReplicaStateRequest,
  UpdateReplicaStateResult,
  UpdateReplicatedSnapshotRequest,
} from '../contract/share-driver.js';
import { appliedRulesFor, type AppliedAccessRule } from '../common/access-rules.js';
import {
  activeReplicaOf,
  requireAvailable,
  shareNotFound,
  snapshotNotFound,
} from '../common/driver-checks.js';
import type { CopyJobs } from './copy-jobs.js';
import type { LocalContext } from './local-context.js';
import type { LocalShareMeta } from './local-metadata.js';
import { newMeta } from './local-shares.js';
import { copyTreeIncremental, exists, setTreeWritable } from './tree-operations.js';

/**
 * Replicas are directories in other pools or back ends under the same root, kept in sync from
 * the active replica by an rsync-like copy of changes. Readable replicas are read-only on disk.
 * Only `readable` and `dr` are offered: two writable directories cannot be kept in sync.
 */
export class LocalReplication {
  constructor(
    private readonly context: LocalContext,
    private readonly copies: CopyJobs,
  ) {}

  async createReplica(request: CreateReplicaRequest): Promise<CreateReplicaResult> {
    const { commandId, newReplica, replicaList, accessRules, replicaSnapshots } = request;
    const type = this.context.requireReplication();
    this.context.own(newReplica);
    const active = activeReplicaOf(replicaList);
    const { store } = this.context;
    const activeDir = await this.requireActiveData(active);
    const readOnly = type === 'readable';
    const existing = await store.readShare(newReplica.host, newReplica.instanceId);
    const meta =
      existing ??
      (await this.context.withMarker(
        'createReplica',
        commandId,
        newReplica.instanceId,
        request,
        async () => {
          const dir = await this.context.prepareShareDir(newReplica);
          await copyTreeIncremental(activeDir, dir, { deleteExtraneous: true });
          await this.copyReplicaSnapshots(active, newReplica, replicaSnapshots, commandId);
          await setTreeWritable(dir, !readOnly);
          const created: LocalShareMeta = {
            ...newMeta(newReplica, commandId, 'available'),
            replicaState: 'in_sync',
            readOnly,
            rules: toAppliedRules(newReplica, accessRules, readOnly),
          };
          await store.writeShare(created);
          return created;
        },
        () => this.destroyReplica(newReplica),
      ));
    await this.context.rewriteAccessFiles(this.context.backend);
    return {
      exportLocations: this.context.exportLocations(newReplica),
      replicaState: meta.replicaState ?? 'in_sync',
      accessRulesStatus: meta.rules.length === accessRules.length ? 'active' : 'error',
    };
  }

  async deleteReplica({ commandId, replica }: DeleteReplicaRequest): Promise<void> {
    this.context.own(replica);
    await this.copies.stop(replica.instanceId);
    await this.context.withMarker('deleteReplica', commandId, replica.instanceId, { replica }, () =>
      this.destroyReplica(replica),
    );
    await this.context.rewriteAccessFiles(this.context.backend);
  }

  /** Removes a replica's data, its snapshot instances and its metadata. */
  async destroyReplica(replica: ShareInstanceRef): Promise<void> {
    const { store } = this.context;
    for (const snapshot of await store.listSnapshots(replica.host)) {
      if (snapshot.shareInstanceId !== replica.instanceId) continue;
      await this.context.removeSnapshotDir(replica.host, snapshot.snapshotInstanceId);
      await store.removeSnapshot(replica.host, snapshot.snapshotInstanceId);
    }
    await this.context.removeShareDir(replica.host, replica.instanceId);
    await store.removeShare(replica.host, replica.instanceId);
  }

  /**
   * A final sync from the old active replica when it is reachable, then the flip: the promoted
   * replica becomes writable and active, the others read-only (readable) and in sync.
   */
  async promoteReplica(request: PromoteReplicaRequest): Promise<PromoteReplicaResult> {
    this.context.requireReplication();
    this.context.own(request.replica);
    await this.context.requireShare(request.replica);
    return this.context.withMarker(
      'promoteReplica',
      request.commandId,
      request.replica.instanceId,
      request,
      () => this.flipActive(request),
    );
  }

  /** Idempotent, so a crashed promotion is finished by running it again. */
  async flipActive(request: PromoteReplicaRequest): Promise<PromoteReplicaResult> {
    const type = this.context.requireReplication();
    const { replica, replicaList, accessRules } = request;
    const { store, layout } = this.context;
    const promotedDir = layout.shareDir(replica.host, replica.instanceId);
    const oldActive = replicaList.find(
      (member) => member.replicaState === 'active' && member.instanceId !== replica.instanceId,
    );
    let oldActiveSynced = false;
    if (oldActive && (await store.readShare(oldActive.host, oldActive.instanceId))) {
      const oldDir = layout.shareDir(oldActive.host, oldActive.instanceId);
      await setTreeWritable(promotedDir, true);
      oldActiveSynced = await copyTreeIncremental(oldDir, promotedDir, { deleteExtraneous: true })
        .then(() => true)
        .catch(() => false);
    }
    await setTreeWritable(promotedDir, true);
    await store.updateShare(replica.host, replica.instanceId, (meta) => ({
      ...meta,
      replicaState: 'active',
      readOnly: false,
      rules: toAppliedRules(replica, accessRules, false),
    }));
    const readOnly = type === 'readable';
    const updates: ReplicaUpdate[] = [];
    const touchedBackends = new Set([this.context.backend]);
    for (const member of replicaList) {
      if (member.instanceId === replica.instanceId) continue;
      const wasActive = member.instanceId === oldActive?.instanceId;
      const state = wasActive && !oldActiveSynced ? 'out_of_sync' : 'in_sync';
      const updated = await store.updateShare(member.host, member.instanceId, async (meta) => {
        await setTreeWritable(layout.shareDir(member.host, member.instanceId), !readOnly);
        return {
          ...meta,
          replicaState: state,
          readOnly,
          rules: toAppliedRules(member, accessRules, readOnly),
        };
      });
      touchedBackends.add(this.context.backendOf(member.host));
      updates.push({ instanceId: member.instanceId, replicaState: updated ? state : 'error' });
    }
    for (const backend of touchedBackends) await this.context.rewriteAccessFiles(backend);
    updates.push({
      instanceId: replica.instanceId,
      replicaState: 'active',
      exportLocations: this.context.exportLocations(replica),
      accessRulesStatus: 'active',
    });
    return { replicas: updates };
  }

  /** Copies the active replica's changes, then checks every snapshot exists here. */
  async updateReplicaState(request: UpdateReplicaStateRequest): Promise<UpdateReplicaStateResult> {
    this.context.requireReplication();
    const { commandId, replica, replicaList, replicaSnapshots } = request;
    this.context.own(replica);
    const meta = await this.context.requireShare(replica);
    const active = activeReplicaOf(replicaList);
    const { store, layout } = this.context;
    if (!(await store.readShare(active.host, active.instanceId))) return { replicaState: 'error' };
    const state = await this.context.withMarker(
      'updateReplicaState',
      commandId,
      replica.instanceId,
      request,
      async () => {
        const dir = layout.shareDir(replica.host, replica.instanceId);
        try {
          await setTreeWritable(dir, true);
          await copyTreeIncremental(layout.shareDir(active.host, active.instanceId), dir, {
            deleteExtraneous: true,
          });
          const complete = await this.copyReplicaSnapshots(
            active,
            replica,
            replicaSnapshots,
            commandId,
          );
          return complete ? ('in_sync' as const) : ('out_of_sync' as const);
        } catch {
          return 'out_of_sync' as const;
        } finally {
          await setTreeWritable(dir, !meta.readOnly);
        }
      },
    );
    await store.updateShare(replica.host, replica.instanceId, (current) => ({
      ...current,
      replicaState: state,
    }));
    return { replicaState: state };
  }

  /** The active replica's snapshot is taken first; every other instance is a copy of it. */
  async createReplicatedSnapshot(
    request: ReplicatedSnapshotRequest,
  ): Promise<ReplicatedSnapshotResult> {
    this.context.requireReplication();
    const { commandId, replicaList, replicaSnapshots } = request;
    const active = activeReplicaOf(replicaList);
    this.context.own(active);
    await this.requireActiveData(active);
    const activeSnapshot = replicaSnapshots.find((s) => s.shareInstanceId === active.instanceId);
    if (!activeSnapshot) {
      throw new DriverError({
        code: 'invalid_request',
        userMessage: 'The snapshot has no instance on the active replica.',
      });
    }
    const resourceId = activeSnapshot.snapshotInstanceId;
    const snapshotInstances = await this.context.withMarker(
      'createReplicatedSnapshot',
      commandId,
      resourceId,
      request,
      async () => {
        await this.takeSnapshot(active, activeSnapshot, commandId, null);
        const updates: SnapshotInstanceUpdate[] = [];
        for (const instance of replicaSnapshots) {
          const member = replicaList.find((r) => r.instanceId === instance.shareInstanceId);
          if (instance === activeSnapshot) {
            updates.push({
              snapshotInstanceId: instance.snapshotInstanceId,
              status: 'available',
              progress: 100,
            });
            continue;
          }
          const copied =
            member && (await this.context.store.readShare(member.host, member.instanceId))
              ? await this.takeSnapshot(member, instance, commandId, { active, activeSnapshot })
              : false;
          updates.push({
            snapshotInstanceId: instance.snapshotInstanceId,
            status: copied ? 'available' : 'error',
            progress: copied ? 100 : 0,
          });
        }
        return updates;
      },
      async () => {
        await this.removeSnapshotInstances(replicaList, replicaSnapshots);
      },
    );
    return { snapshotInstances };
  }

  async deleteReplicatedSnapshot(
    request: ReplicatedSnapshotRequest,
  ): Promise<ReplicatedSnapshotResult> {
    this.context.requireReplication();
    const { commandId, replicaList, replicaSnapshots } = request;
    const resourceId = replicaSnapshots[0]?.snapshotId ?? commandId;
    const snapshotInstances = await this.context.withMarker(
      'deleteReplicatedSnapshot',
      commandId,
      resourceId,
      request,
      () => this.removeSnapshotInstances(replicaList, replicaSnapshots),
    );
    return { snapshotInstances };
  }

  async removeSnapshotInstances(
    replicaList: readonly ShareInstanceRef[],
    instances: readonly SnapshotInstanceRef[],
  ): Promise<SnapshotInstanceUpdate[]> {
    const { store } = this.context;
    const updates: SnapshotInstanceUpdate[] = [];
    for (const instance of instances) {
      const member = replicaList.find((r) => r.instanceId === instance.shareInstanceId);
      if (member) {
        await this.context.removeSnapshotDir(member.host, instance.snapshotInstanceId);
        await store.removeSnapshot(member.host, instance.snapshotInstanceId);
      }
      updates.push({ snapshotInstanceId: instance.snapshotInstanceId, status: 'deleted' });
    }
    return updates;
  }

  async updateReplicatedSnapshot(
    request: UpdateReplicatedSnapshotRequest,
  ): Promise<SnapshotInstanceUpdate> {
    this.context.requireReplication();
    const { commandId, replicaList, shareReplica, replicaSnapshots, replicaSnapshot } = request;
    this.context.own(shareReplica);
    const { store } = this.context;
    const id = replicaSnapshot.snapshotInstanceId;
    if (replicaSnapshot.status === 'deleting') {
      await this.context.removeSnapshotDir(shareReplica.host, id);
      await store.removeSnapshot(shareReplica.host, id);
      throw snapshotNotFound(id);
    }
    if (!(await store.readSnapshot(shareReplica.host, id))) {
      const active = activeReplicaOf(replicaList);
      const activeSnapshot = replicaSnapshots.find((s) => s.shareInstanceId === active.instanceId);
      if (!activeSnapshot) throw snapshotNotFound(id);
      await this.context.requireShare(shareReplica);
      const copied = await this.takeSnapshot(shareReplica, replicaSnapshot, commandId, {
        active,
        activeSnapshot,
      });
      if (!copied) throw snapshotNotFound(id);
    }
    return { snapshotInstanceId: id, status: 'available', progress: 100 };
  }

  /** Snapshot instances the new or refreshed replica lacks, copied from the active replica's. */
  private async copyReplicaSnapshots(
    active: ShareInstanceRef,
    replica: ShareInstanceRef,
    pairs: readonly ReplicaSnapshotPair[],
    commandId: string,
  ): Promise<boolean> {
    let complete = true;
    for (const pair of pairs) {
      const { shareReplicaSnapshot, activeReplicaSnapshot } = pair;
      if (
        await this.context.store.readSnapshot(replica.host, shareReplicaSnapshot.snapshotInstanceId)
      ) {
        continue;
      }
      const copied = await this.takeSnapshot(replica, shareReplicaSnapshot, commandId, {
        active,
        activeSnapshot: activeReplicaSnapshot,
      });
      complete &&= copied;
    }
    return complete;
  }

  /**
   * Takes `instance` on `member`: from the member's own data, or (with `from`) as a copy of
   * the active replica's snapshot instance. False when the source does not exist.
   */
  private async takeSnapshot(
    member: ShareInstanceRef,
    instance: SnapshotInstanceRef,
    commandId: string,
    from: { active: ShareInstanceRef; activeSnapshot: SnapshotInstanceRef } | null,
  ): Promise<boolean> {
    const { store, layout } = this.context;
    if (await store.readSnapshot(member.host, instance.snapshotInstanceId)) return true;
    const source = from
      ? layout.snapshotDir(from.active.host, from.activeSnapshot.snapshotInstanceId)
      : layout.shareDir(member.host, member.instanceId);
    if (!(await exists(source))) return false;
    const target = layout.snapshotDir(member.host, instance.snapshotInstanceId);
    await this.context.removeSnapshotDir(member.host, instance.snapshotInstanceId);
    const method = await this.context.snapshotTree(source, target, member.host);
    await store.writeSnapshot({
      snapshotId: instance.snapshotId,
      snapshotInstanceId: instance.snapshotInstanceId,
      shareInstanceId: member.instanceId,
      host: member.host,
      sizeGiB: instance.sizeGiB,
      method,
      commandId,
    });
    return true;
  }

  private async requireActiveData(active: ShareInstanceRef): Promise<string> {
    const meta = await this.context.store.readShare(active.host, active.instanceId);
    if (!meta) {
      throw new DriverError({
        code: 'replication_error',
        userMessage: 'The active replica cannot be reached.',
        detail: shareNotFound(active.instanceId).message,
      });
    }
    requireAvailable(active.instanceId, meta.status, 'replicate it');
    return this.context.layout.shareDir(active.host, active.instanceId);
  }
}

function toAppliedRules(
  share: ShareInstanceRef,
  accessRules: readonly AccessRule[],
  readOnly: boolean,
): AppliedAccessRule[] {
  return [...appliedRulesFor(share, accessRules, readOnly).rules];
}
