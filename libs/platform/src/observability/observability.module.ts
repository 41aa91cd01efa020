import {
  Global,
  Inject,
  Injectable,
  Module,
  Optional,
  type DynamicModule,
  type OnModuleInit,
} from '@nestjs/common';
import type { EventStore } from '#hawser/eventstore';
import { readinessMaxLagS } from '#hawser/observability';
import { ProjectionRunner, type DocumentStore } from '#hawser/read-models';
import { HAWSER_CONFIG, type HawserConfig } from '../config/hawser-config.js';
import { DOCUMENT_STORE, EVENT_STORE } from '../tokens/tokens.js';
import {
  CAPABILITY_REPORTS,
  travelsOverConnection,
  type CapabilityReports,
} from '../transport/capability-reports.js';
import { WorkflowRunners } from '../workflows/workflow-runners.js';
import { eventStoreProbe, natsProbe, projectionsProbe } from './core-probes.js';
import { HealthProbes } from './health-probes.js';
import { LogFollowerLag } from './log-follower-lag.js';
import { ServiceMetrics } from './service-metrics.js';

/** Registers the checks every process has: the event store, its projections, NATS. */
@Injectable()
class CoreProbes implements OnModuleInit {
  constructor(
    private readonly probes: HealthProbes,
    private readonly lag: LogFollowerLag,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(HAWSER_CONFIG) private readonly config: HawserConfig,
    @Optional() private readonly projections?: ProjectionRunner,
    @Optional() @Inject(CAPABILITY_REPORTS) private readonly reports?: CapabilityReports,
  ) {}

  onModuleInit(): void {
    this.probes.register('event_store', () => eventStoreProbe(this.events, this.config));
    const { projections, reports } = this;
    if (projections) {
      const maxLagS = readinessMaxLagS();
      this.probes.register('projections', () => projectionsProbe(projections, this.lag, maxLagS));
    }
    if (reports && travelsOverConnection(reports)) {
      this.probes.register('nats', () => natsProbe(reports));
    }
  }
}

/**
 * Health checks and metrics of one Hawser process: the readiness probes its parts register,
 * its followers' lag and the Prometheus text the API serves at `/metrics`.
 */
@Global()
@Module({})
export class ObservabilityModule {
  static forRoot(): DynamicModule {
    return {
      module: ObservabilityModule,
      providers: [
        { provide: HealthProbes, useValue: new HealthProbes() },
        {
          provide: LogFollowerLag,
          useFactory: (events: EventStore, workflows: WorkflowRunners, runner?: ProjectionRunner) =>
            new LogFollowerLag(events, workflows, runner),
          inject: [EVENT_STORE, WorkflowRunners, { token: ProjectionRunner, optional: true }],
        },
        {
          provide: ServiceMetrics,
          useFactory: (lag: LogFollowerLag, documents: DocumentStore) =>
            new ServiceMetrics(lag, documents),
          inject: [LogFollowerLag, DOCUMENT_STORE],
        },
        CoreProbes,
      ],
      exports: [HealthProbes, ServiceMetrics, LogFollowerLag],
    };
  }
}
