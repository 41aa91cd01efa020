import { Logger } from '@nestjs/common';
import { derivedId, isActiveShare } from '#hawser/domain';
import type { ShareDriverOperations } from '#hawser/share-node';
import { findShareInstances } from '#hawser/projections';
import type { DocumentStore } from '#hawser/read-models';
import { PeriodicTask } from './periodic-task.js';

/**
 * Manila's periodic_share_replica_update and periodic_share_replica_snapshot_update (reference
 * 5.7): every interval, each non-active replica this node holds is asked of its driver how far
 * it is behind the active replica, and a changed replica_state is recorded; then each of its
 * snapshot instances still creating or deleting is refreshed (update_replicated_snapshot), on
 * the other active replicas of a writable share too.
 */
export class ReplicaStateRefresh {
  private readonly logger = new Logger('share-node');
  private readonly periodic: PeriodicTask;

  constructor(
    private readonly operations: ShareDriverOperations,
    private readonly documents: DocumentStore,
    intervalMs: number,
  ) {
    this.periodic = new PeriodicTask(
      intervalMs,
      () => this.refreshAll(),
      (error) => this.logger.error(`replica state refresh: ${String(error)}`),
    );
  }

  start(): void {
    this.periodic.start();
  }

  stop(): Promise<void> {
    return this.periodic.stop();
  }

  async refreshAll(): Promise<void> {
    const replicas = await findShareInstances(this.documents, {
      replica_state: { $in: ['active', 'in_sync', 'out_of_sync', 'error'] },
    });
    // Active replicas count only where a share has several (writable replication): a snapshot
    // instance on one of them may be left creating by the node that coordinates the snapshot.
    const actives = new Map<string, number>();
    for (const doc of replicas) {
      if (doc.replica_state === 'active') {
        actives.set(doc.share_id, (actives.get(doc.share_id) ?? 0) + 1);
      }
    }
    const round = new Date().toISOString();
    for (const doc of replicas) {
      if (doc.replica_state === 'active' && (actives.get(doc.share_id) ?? 0) < 2) continue;
      if (!this.operations.driverFor(doc.host)) continue;
      const { state } = await this.operations.load(doc.share_id);
      if (!isActiveShare(state)) continue;
      const replica = state.instances.find((i) => i.id === doc.id);
      if (!replica) continue;
      const commandId = derivedId(doc.id, `refresh:${round}`);
      await this.operations.replicas.refresh(state, replica, commandId);
      await this.operations.replicatedSnapshots
        .refresh(state, replica, commandId)
        .catch((error: unknown) =>
          this.logger.warn(`snapshots of replica ${replica.id}: ${String(error)}`),
        );
    }
  }
}
