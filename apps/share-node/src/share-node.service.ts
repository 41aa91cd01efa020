import {
  Inject,
  Injectable,
  Logger,
  Optional,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { CommandHandler } from '#hawser/application';
import { backendDecider, backendStream, derivedId } from '#hawser/domain';
import type { BackendConfig, BackendStatsReport, DriverRegistry } from '#hawser/drivers';
import type { EventStore } from '#hawser/eventstore';
import { poolCapacity } from '#hawser/observability';
import { ProcessManagerRunner } from '#hawser/process-managers';
import { BACKENDS, findShareInstances, type BackendDocument } from '#hawser/projections';
import type { DocumentStore } from '#hawser/read-models';
import {
  instrumentedDriver,
  PlacementAdmission,
  ShareDriverOperations,
  shareNodeOperationsProcessManager,
  replicaNodeOperationsProcessManager,
  shareMigrationNodeProcessManager,
} from '#hawser/share-node';
import {
  CAPABILITY_REPORTS,
  DOCUMENT_STORE,
  EVENT_STORE,
  HAWSER_CONFIG,
  READ_MODEL_POSITIONS,
  type CapabilityReports,
  type ReadModelPositions,
  type HawserConfig,
  HealthProbes,
  WorkflowRunners,
} from '#hawser/platform';
import { CreatingFromSnapshotPoll } from './creating-from-snapshot.poll.js';

import { ReplicaStateRefresh } from './replica-state-refresh.js';

export const SHARE_NODE_OPTIONS = Symbol('SHARE_NODE_OPTIONS');

/** Each pool's capacity as its back end reports it, for `/metrics`. */
const recordCapacity = (report: BackendStatsReport): void => {
  const { backend } = report;
  for (const { pool, capabilities: c } of report.pools) {
    const figures = [
      ['total', c.total_capacity_gb],
      ['free', c.free_capacity_gb],
      ['allocated', c.allocated_capacity_gb],
    ] as const;
    for (const [kind, value] of figures) {
      if (typeof value === 'number') poolCapacity.set({ backend, pool, kind }, value);
    }
  }
};
export const DRIVER_REGISTRY = Symbol('DRIVER_REGISTRY');

export interface ShareNodeOptions {
  /** Names this node's process manager and its checkpoint. */
  readonly nodeName: string;
  readonly backends: readonly BackendConfig[];
}

/**
 * Manila's manila-share: hosts the drivers of its back ends, registers them, reports their
 * pools to the schedulers, settles operations a crash left open, then follows the log and
 * polls the shares it is creating from snapshots in the background.
 */
@Injectable()
export class ShareNodeService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('share-node');
  private runner: ProcessManagerRunner | undefined;
  private reporting: NodeJS.Timeout | undefined;
  /** Checks each share or replica placement against the pools' last reports before creating it. */
  private readonly admission: PlacementAdmission;
  private polling: CreatingFromSnapshotPoll | undefined;
  private replicaRefresh: ReplicaStateRefresh | undefined;
  /** Back ends registered, reported and following the log. */
  private initialised = false;

  constructor(
    @Inject(SHARE_NODE_OPTIONS) private readonly options: ShareNodeOptions,
    @Inject(DRIVER_REGISTRY) private readonly drivers: DriverRegistry,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(DOCUMENT_STORE) private readonly documents: DocumentStore,
    @Inject(CAPABILITY_REPORTS) private readonly reports: CapabilityReports,
    @Inject(HAWSER_CONFIG) private readonly config: HawserConfig,
    private readonly commands: CommandHandler,
    private readonly workflows: WorkflowRunners,
    @Inject(READ_MODEL_POSITIONS) private readonly readModels: ReadModelPositions,
    @Optional() probes?: HealthProbes,
  ) {
    this.admission = new PlacementAdmission(commands);
    probes?.register(`share_node:${options.nodeName}`, () => ({
      ready: this.initialised,
      backends: options.backends.map((b) => b.name),
    }));
  }

  async onApplicationBootstrap(): Promise<void> {
    const now = new Date().toISOString();
    for (const backend of this.options.backends) {
      await this.commands.handle(
        backendDecider,
        backendStream(backend.name),
        {
          type: 'RegisterBackend',
          configuration: {
            backend: backend.name,
            availabilityZone: backend.availabilityZone,
            replicationDomain: backend.replicationDomain ?? null,
            driver: backend.driver,
            pools: backend.pools.map((p) => p.name),
            node: this.options.nodeName,
          },
          now,
        },
        { commandId: derivedId(`${backend.name}:${now}`, 'register'), userId: 'share-node' },
        { retryOnConflict: 3 },
      );
    }
    this.reportNetworkExports();
    await this.reportPools();
    this.reporting = setInterval(() => void this.reportPools(), this.config.reportIntervalS * 1000);
    this.reporting.unref();

    const operations = new ShareDriverOperations(
      this.commands,
      new Map(this.drivers.all().map((d) => [d.backend, instrumentedDriver(d)])),
    );
    await this.recover(operations);
    await this.removeDroppedBackends(now);
    const workflows = [
      shareNodeOperationsProcessManager(this.options.nodeName, operations, this.admission),
      replicaNodeOperationsProcessManager(this.options.nodeName, operations, this.admission),
      shareMigrationNodeProcessManager(this.options.nodeName, operations),
    ];
    this.runner = new ProcessManagerRunner(this.events, this.documents, workflows, {
      storageRetryIntervalMs: this.config.storageRetryIntervalMs,
    });
    this.workflows.register(
      workflows.map((w) => w.name),
      this.runner,
    );
    await this.runner.start();
    this.polling = new CreatingFromSnapshotPoll(
      this.documents,
      operations,
      this.config.shareStatusPollMs,
    );
    this.polling.start();
    this.replicaRefresh = new ReplicaStateRefresh(
      operations,
      this.documents,
      this.config.replicaStateUpdateIntervalS * 1000,
    );
    this.replicaRefresh.start();
    this.initialised = true;
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.reporting) clearInterval(this.reporting);
    await this.polling?.stop();
    await this.replicaRefresh?.stop();
    await this.runner?.stop();
    await this.drivers.close();
  }

  /** Says once per back end with real data whether its shares reach clients, and why not. */
  private reportNetworkExports(): void {
    for (const driver of this.drivers.all()) {
      for (const exports of driver.networkExports?.() ?? []) {
        const shares = `${driver.backend}: ${exports.protocol} shares`;
        if (exports.served) {
          this.logger.log(`${shares} ${exports.reason}`);
        } else {
          this.logger.warn(
            `${shares} are not served over the network (${exports.reason}); ` +
              'export locations are directory paths',
          );
        }
      }
    }
  }

  /**
   * Back ends this node registered before but is no longer configured with are removed, so the
   * schedulers stop waiting for their reports. Runs after `recover`, whose wait has brought the
   * registry up to this start's registrations.
   */
  private async removeDroppedBackends(now: string): Promise<void> {
    const { nodeName, backends } = this.options;
    const configured = new Set(backends.map((b) => b.name));
    const served = await this.documents.find<BackendDocument>(BACKENDS, { node: nodeName });
    const dropped = served.filter((b) => !b.removed && !configured.has(b.backend));
    for (const { backend } of dropped) {
      await this.commands.handle(
        backendDecider,
        backendStream(backend),
        { type: 'RemoveBackend', backend, node: nodeName, now },
        { commandId: derivedId(`${backend}:${now}`, 'remove'), userId: 'share-node' },
        { retryOnConflict: 3 },
      );
    }
    if (dropped.length > 0) {
      this.logger.log(
        `removed back ends no longer configured on ${nodeName}: ${dropped.map((b) => b.backend).join(', ')}`,
      );
    }
  }

  /** Operations claimed before a crash and never reported on: ask the driver, then finish them. */
  private async recover(operations: ShareDriverOperations): Promise<void> {
    await this.readModels.waitForPosition(await this.events.headPosition(), 60_000);
    // Sorted on the field, SQLite reads the sparse index that holds only these (without
    // statistics it would otherwise walk every instance in id order).
    const pending = await findShareInstances(
      this.documents,
      { pending_operation: { $ne: null } },
      { sort: [['pending_operation', 1]] },
    );
    for (const instance of pending) {
      if (!operations.driverFor(instance.host)) continue;
      await operations.recover(instance.share_id, instance.id);
    }
    if (pending.length === 0) return;
    this.logger.log(`settled ${pending.length} operations left open`);
    // Measure again, so the placement check sees what the settled creations took.
    await this.reportPools();
  }

  private async reportPools(): Promise<void> {
    for (const driver of this.drivers.all()) {
      try {
        const measuredAt = Date.now();
        const report = await driver.getPoolStats({
          commandId: derivedId(driver.backend, measuredAt),
        });
        this.admission.observe(report, measuredAt);
        recordCapacity(report);
        await this.reports.publish(report);
      } catch (error) {
        this.logger.warn(`pool stats of ${driver.backend} failed: ${String(error)}`);
      }
    }
  }

  /** Waits until this node has reacted to the log up to `position` (tests, benchmarks). */
  waitForPosition(position: number, timeoutMs: number): Promise<boolean> {
    return this.runner ? this.runner.waitForPosition(position, timeoutMs) : Promise.resolve(false);
  }
}
