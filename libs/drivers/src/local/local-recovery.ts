import type {
  CreateReplicaRequest,
  CreateShareFromSnapshotRequest,
  PromoteReplicaRequest,
  RecoveredOperation,
  ReplicatedSnapshotRequest,
  ShareInstanceRef,
  SnapshotInstanceRef,
  SnapshotRequest,
  UpdateReplicaStateRequest,
} from '../contract/share-driver.js';
import type { LocalContext } from './local-context.js';
import type { LocalMarker } from './local-metadata.js';
import type { LocalReplication } from './local-replication.js';
import type { LocalReverts } from './local-revert.js';
import type { LocalShares } from './local-shares.js';
import { exists } from './tree-operations.js';

type Resolution = RecoveredOperation['resolution'];

/**
 * Finishes or undoes work whose marker survived a crash. Creations that cannot be redone
 * faithfully (a point-in-time snapshot, a replica) are undone; deletions are finished;
 * background copies resume where they stopped; a revert is done again.
 */
export class LocalRecovery {
  constructor(
    private readonly context: LocalContext,
    private readonly shares: LocalShares,
    private readonly replication: LocalReplication,
    private readonly reverts: LocalReverts,
  ) {}

  async recoverAll(): Promise<RecoveredOperation[]> {
    const recovered: RecoveredOperation[] = [];
    for (const marker of await this.context.store.listMarkers(this.context.backend)) {
      const resolution = await this.recover(marker);
      if (resolution !== 'resumed') {
        await this.context.store.removeMarker(
          this.context.backend,
          marker.operation,
          marker.resourceId,
        );
      }
      recovered.push({
        operation: marker.operation,
        commandId: marker.commandId,
        resourceId: marker.resourceId,
        resolution,
      });
    }
    if (recovered.length > 0) await this.context.rewriteAccessFiles(this.context.backend);
    return recovered;
  }

  /**
   * Sets every share's limit from its metadata again: a crash between changing a limit and
   * recording the new size leaves them apart.
   */
  async reapplyLimits(): Promise<void> {
    const hosts = await this.context.poolHostsOf(this.context.backend);
    for (const meta of await this.context.store.listShares(hosts)) {
      if (meta.status !== 'creating_from_snapshot') await this.shares.applyLimit(meta);
    }
  }

  private async recover(marker: LocalMarker): Promise<Resolution> {
    const { store } = this.context;
    switch (marker.operation) {
      case 'createShare': {
        const { share } = marker.request as { share: ShareInstanceRef };
        if (!(await store.readShare(share.host, share.instanceId))) {
          await this.shares.materialise(share, marker.commandId);
        }
        return 'completed';
      }
      case 'deleteShare': {
        const { share } = marker.request as { share: ShareInstanceRef };
        await this.shares.destroy(share);
        return 'completed';
      }
      case 'deleteReplica': {
        const { replica } = marker.request as { replica: ShareInstanceRef };
        await this.replication.destroyReplica(replica);
        return 'completed';
      }
      case 'createSnapshot': {
        const { snapshot, share } = marker.request as {
          snapshot: SnapshotInstanceRef;
          share: ShareInstanceRef;
        };
        await this.context.removeSnapshotDir(share.host, snapshot.snapshotInstanceId);
        await store.removeSnapshot(share.host, snapshot.snapshotInstanceId);
        return 'rolled_back';
      }
      case 'deleteSnapshot': {
        const { snapshot, share } = marker.request as {
          snapshot: SnapshotInstanceRef;
          share: ShareInstanceRef;
        };
        await this.context.removeSnapshotDir(share.host, snapshot.snapshotInstanceId);
        await store.removeSnapshot(share.host, snapshot.snapshotInstanceId);
        return 'completed';
      }
      case 'createShareFromSnapshot':
        return this.recoverCopy(marker.request as CreateShareFromSnapshotRequest);
      case 'createReplica': {
        const { newReplica } = marker.request as CreateReplicaRequest;
        await this.replication.destroyReplica(newReplica);
        return 'rolled_back';
      }
      case 'promoteReplica':
        await this.replication.flipActive(marker.request as PromoteReplicaRequest);
        return 'completed';
      case 'updateReplicaState': {
        // The sync stopped midway: the replica is readable but not in sync until the next run.
        const { replica } = marker.request as UpdateReplicaStateRequest;
        await store.updateShare(replica.host, replica.instanceId, (meta) => ({
          ...meta,
          replicaState: 'out_of_sync',
        }));
        return 'rolled_back';
      }
      case 'createReplicatedSnapshot': {
        const { replicaList, replicaSnapshots } = marker.request as ReplicatedSnapshotRequest;
        await this.replication.removeSnapshotInstances(replicaList, replicaSnapshots);
        return 'rolled_back';
      }
      case 'deleteReplicatedSnapshot': {
        const { replicaList, replicaSnapshots } = marker.request as ReplicatedSnapshotRequest;
        await this.replication.removeSnapshotInstances(replicaList, replicaSnapshots);
        return 'completed';
      }
      case 'revertToSnapshot': {
        const { share, snapshot } = marker.request as SnapshotRequest;
        const taken = await store.readSnapshot(share.host, snapshot.snapshotInstanceId);
        if (!taken) return 'rolled_back';
        await this.reverts.redo(taken);
        return 'completed';
      }
      default:
        return 'rolled_back';
    }
  }

  /** A background copy resumes if its metadata was written; otherwise its start is undone. */
  private async recoverCopy(
    request: Pick<CreateShareFromSnapshotRequest, 'share'>,
  ): Promise<Resolution> {
    const { share } = request;
    const { store, layout } = this.context;
    const meta = await store.readShare(share.host, share.instanceId);
    // The copy's source (a snapshot, or a migration's source share) is named in its metadata.
    const source = meta?.copySource?.dir;
    if (meta?.status === 'creating_from_snapshot' && source && (await exists(source))) {
      const target = layout.shareDir(share.host, share.instanceId);
      this.shares.startCopy(share, meta.copySource.dir, target, meta.copySource.totalBytes);
      return 'resumed';
    }
    if (meta?.status === 'available') return 'completed';
    await this.shares.destroy(share);
    return 'rolled_back';
  }
}
