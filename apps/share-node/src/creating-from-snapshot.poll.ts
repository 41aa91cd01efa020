import { Logger } from '@nestjs/common';
import type { ShareDriverOperations } from '#hawser/share-node';
import { findShareInstances } from '#hawser/projections';
import type { DocumentStore } from '#hawser/read-models';
import { PeriodicTask } from './periodic-task.js';

/**
 * The share node's periodic task over shares in `creating_from_snapshot` (Manila's
 * periodic_share_status_update, reference 4.5): every interval, each such instance on this
 * node's back ends is polled. Which instances to poll comes from the read model, and each poll
 * re-reads the share's stream, so a restarted node picks up where the log says it is.
 */
export class CreatingFromSnapshotPoll {
  private readonly logger = new Logger('share-node');
  private readonly periodic: PeriodicTask;

  constructor(
    private readonly documents: DocumentStore,
    private readonly operations: ShareDriverOperations,
    intervalMs: number,
  ) {
    // Polls never overlap: a tick that finds the previous one still running skips.
    this.periodic = new PeriodicTask(
      intervalMs,
      () => this.pollAll(),
      (error) => this.logger.warn(`polling failed: ${String(error)}`),
    );
  }

  start(): void {
    this.periodic.start();
  }

  stop(): Promise<void> {
    return this.periodic.stop();
  }

  private async pollAll(): Promise<void> {
    const instances = await findShareInstances(this.documents, {
      transitional_status: 'creating_from_snapshot',
    });
    for (const instance of instances) {
      if (!this.operations.driverFor(instance.host)) continue;
      try {
        await this.operations.pollCreatingFromSnapshot(instance.share_id, instance.id);
      } catch (error) {
        this.logger.warn(`polling share instance ${instance.id} failed: ${String(error)}`);
      }
    }
    // A migration's host-assisted copy is followed the same way, on its destination instance.
    const destinations = await findShareInstances(this.documents, {
      transitional_status: 'migrating_to',
    });
    for (const instance of destinations) {
      if (!this.operations.driverFor(instance.host)) continue;
      try {
        await this.operations.migrations.poll(instance.share_id, instance.id);
      } catch (error) {
        this.logger.warn(`polling migration to ${instance.id} failed: ${String(error)}`);
      }
    }
  }
}
