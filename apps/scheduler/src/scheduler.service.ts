import {
  Inject,
  Injectable,
  Logger,
  Optional,
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
  HealthProbes,
  type ProbeResult,
  WorkflowRunners,
} from '#hawser/platform';
import { DisabledBackends } from './disabled-backends.js';
import { FilterSchedulerPlacement, SCHEDULER_FILTERS } from './filter-scheduler.placement.js';

export const SCHEDULER_OPTIONS = Symbol('SCHEDULER_OPTIONS');

/** How often the wait for reports reads the registry again (a node may remove a back end). */
const REGISTRY_REREAD_MS = 250;

export interface SchedulerOptions {
  /**
   * The back ends this process knows are configured (the all-in-one process's own). Placement
   * waits for their reports only; without it, for every back end the log has registered.
   */
  readonly configuredBackends?: readonly string[];
}

/**
 * Manila's manila-scheduler: keeps every pool's state from the nodes' capability reports and
 * places requested shares. It starts placing once the back ends it expects have reported (or
 * after two report intervals), so a restart does not fail shares for want of pool data. It
 * expects the configured back ends when it knows them (all in one), else the registered ones
 * their nodes have not removed, so a back end dropped from a configuration (still registered in
 * the log, shown as down) does not hold placement up.
 */
@Injectable()
export class SchedulerService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('scheduler');
  readonly registry: PoolStateRegistry;
  private readonly placement: FilterSchedulerPlacement;
  private readonly disabledBackends: DisabledBackends;
  private readonly reported = new Set<string>();
  private unsubscribe: (() => void) | undefined;
  private runner: ProcessManagerRunner | undefined;
  private stopped = false;
  /** The back ends placement is waiting for, until it starts. */
  private waitingFor: readonly string[] = [];

  constructor(
    @Inject(CAPABILITY_REPORTS) private readonly reports: CapabilityReports,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(DOCUMENT_STORE) private readonly documents: DocumentStore,
    @Inject(HAWSER_CONFIG) private readonly config: HawserConfig,
    private readonly commands: CommandHandler,
    private readonly workflows: WorkflowRunners,
    @Optional() @Inject(SCHEDULER_OPTIONS) private readonly options: SchedulerOptions = {},
    @Optional() probes?: HealthProbes,
  ) {
    this.registry = new PoolStateRegistry({ serviceDownTimeMs: config.serviceDownTimeS * 1000 });
    this.placement = new FilterSchedulerPlacement(
      this.registry,
      new FilterScheduler(this.registry, { filters: SCHEDULER_FILTERS }),
    );
    this.disabledBackends = new DisabledBackends(documents, this.registry);
    this.unsubscribe = this.reports.subscribe((report) => this.take(report));
    probes?.register('scheduler', () => this.readiness());
  }

  /** Ready once placing, with live reports from at least one back end. */
  readiness(): ProbeResult {
    this.registry.refresh(Date.now());
    const liveBackends = new Set<string>();
    for (const pool of this.registry.livePools()) {
      const backend = this.registry.columns.backendIndex[pool];
      if (backend !== undefined) liveBackends.add(this.registry.backendName(backend));
    }
    const placing = this.runner !== undefined;
    return {
      ready: placing && liveBackends.size > 0,
      placing,
      reportingBackends: [...liveBackends].sort(),
      ...(!placing && { waitingFor: this.waitingFor }),
    };
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
    if (this.disabledBackends.has(report.backend)) return;
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

  /**
   * The configured back ends when this process knows them (all in one), or else every back end
   * the registry holds that its node has not removed. Nodes remove what they no longer serve
   * when they start, so the registry is read again while waiting.
   */
  private async expectedBackends(): Promise<readonly string[]> {
    const backends = await this.documents.find<BackendDocument>(BACKENDS, {});
    const configured = this.options.configuredBackends;
    if (configured) return configured;
    return backends.filter((b) => !b.removed).map((b) => b.backend);
  }

  private async logNotAwaited(): Promise<void> {
    const expected = new Set(await this.expectedBackends());
    const backends = await this.documents.find<BackendDocument>(BACKENDS, {});
    const notAwaited = backends.map((b) => b.backend).filter((name) => !expected.has(name));
    if (notAwaited.length > 0) {
      this.logger.log(
        `not waiting for back ends removed from their node's configuration (shown as down): ${notAwaited.join(', ')}`,
      );
    }
  }

  private async startWhenPoolsAreKnown(): Promise<void> {
    const deadline = Date.now() + 2 * this.config.reportIntervalS * 1000;
    await this.logNotAwaited();
    let expected = await this.expectedBackends();
    let readAt = Date.now();
    for (;;) {
      if (this.stopped) return;
      if (Date.now() - readAt >= REGISTRY_REREAD_MS) {
        expected = await this.expectedBackends();
        readAt = Date.now();
      }
      this.waitingFor = expected.filter((backend) => !this.reported.has(backend));
      if (this.waitingFor.length === 0) break;
      if (Date.now() >= deadline) {
        this.logger.warn(`placing without reports from ${this.waitingFor.join(', ')}`);
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
    ].map((manager) => this.disabledBackends.guard(manager));
    this.runner = new ProcessManagerRunner(this.events, this.documents, workflows, {
      storageRetryIntervalMs: this.config.storageRetryIntervalMs,
    });
    this.workflows.register(
      workflows.map((w) => w.name),
      this.runner,
    );
    await this.runner.start();
  }
}
