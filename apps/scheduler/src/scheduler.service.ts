import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { CommandHandler } from '#hawser/application';
import type { BackendStatsReport } from '#hawser/drivers';
import type { EventStore } from '#hawser/eventstore';
import {
  ProcessManagerRunner,
  replicaSchedulingProcessManager,
  shareSchedulingProcessManager,
  shareMigrationProcessManager,
} from '#hawser/process-managers';
import {
  BACKENDS,
  SHARE_TYPES,
  type BackendDocument,
  type ShareTypeDocument,
} from '#hawser/projections';
import type { DocumentStore } from '#hawser/read-models';
import { FilterScheduler, PoolStateRegistry } from '#hawser/scheduler';
import {
  CAPABILITY_REPORTS,
  DOCUMENT_STORE,
  EVENT_STORE,
  HAWSER_CONFIG,
  type CapabilityReports,
  type HawserConfig,
  WorkflowRunners,
} from '#hawser/platform';
import { FilterSchedulerPlacement, SCHEDULER_FILTERS } from './filter-scheduler.placement.js';

/**
 * Manila's manila-scheduler: keeps every pool's state from the nodes' capability reports and
 * places requested shares. It starts placing once every registered back end has reported (or
 * after two report intervals), so a restart does not fail shares for want of pool data.
 */
@Injectable()
export class SchedulerService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('scheduler');
  readonly registry: PoolStateRegistry;
  private readonly placement: FilterSchedulerPlacement;
  private readonly reported = new Set<string>();
  private unsubscribe: (() => void) | undefined;
  private runner: ProcessManagerRunner | undefined;
  private stopped = false;

  constructor(
    @Inject(CAPABILITY_REPORTS) private readonly reports: CapabilityReports,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(DOCUMENT_STORE) private readonly documents: DocumentStore,
    @Inject(HAWSER_CONFIG) private readonly config: HawserConfig,
    private readonly commands: CommandHandler,
    private readonly workflows: WorkflowRunners,
  ) {
    this.registry = new PoolStateRegistry({ serviceDownTimeMs: config.serviceDownTimeS * 1000 });
    this.placement = new FilterSchedulerPlacement(
      this.registry,
      new FilterScheduler(this.registry, { filters: SCHEDULER_FILTERS }),
    );
    this.unsubscribe = this.reports.subscribe((report) => this.take(report));
  }

  async onApplicationBootstrap(): Promise<void> {
    void this.startWhenPoolsAreKnown().catch((error: unknown) => {
      // Closing the app mid-start closes the stores under the wait: nothing is left to start.
      if (this.stopped) return;
      throw error;
    });
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    await this.runner?.stop();
  }

  /** Waits until the scheduler has placed what the log holds up to `position` (tests, benchmarks). */
  async waitForPosition(position: number, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!this.runner && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    return this.runner ? this.runner.waitForPosition(position, deadline - Date.now()) : false;
  }

  private take(report: BackendStatsReport): void {
    const first = report.pools[0]?.capabilities.timestamp;
    const receivedAt = first ? Date.parse(first) : Date.now();
    try {
      this.registry.report(
        report.backend,
        report.pools.map((p) => p.capabilities),
        receivedAt,
        report.availabilityZone,
      );
      this.reported.add(report.backend);
    } catch (error) {
      this.logger.warn(`ignored the report of ${report.backend}: ${String(error)}`);
    }
  }

  /** The pools each active share type can use, prepared before the first placement. */
  private async primeShareTypes(): Promise<void> {
    const types = await this.documents.find<ShareTypeDocument>(SHARE_TYPES, {});
    const primed = this.placement.primeShareTypes(
      types
        .filter((type) => type.state.status === 'active')
        .map((type) => ({ id: type.id, name: type.name, extraSpecs: type.extra_specs })),
      this.config.enabledShareProtocols,
    );
    this.logger.log(`prepared the pools of ${primed} kinds of share request`);
  }

  private async startWhenPoolsAreKnown(): Promise<void> {
    const deadline = Date.now() + 2 * this.config.reportIntervalS * 1000;
    for (;;) {
      if (this.stopped) return;
      const backends = await this.documents.find<BackendDocument>(BACKENDS, {});
      const waiting = backends.filter((b) => !this.reported.has(b.backend));
      if (waiting.length === 0 || Date.now() >= deadline) {
        if (waiting.length > 0) {
          this.logger.warn(
            `placing without reports from ${waiting.map((b) => b.backend).join(', ')}`,
          );
        }
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    if (this.stopped) return;
    await this.primeShareTypes();
    const workflows = [
      shareSchedulingProcessManager(this.commands, this.placement),
      replicaSchedulingProcessManager(this.commands, this.placement),
      shareMigrationProcessManager(this.commands, this.placement),
    ];
    this.runner = new ProcessManagerRunner(this.events, this.documents, workflows);
    this.workflows.register(
      workflows.map((w) => w.name),
      this.runner,
    );
    await this.runner.start();
  }
}
