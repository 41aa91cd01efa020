import 'reflect-metadata';
import {
  Inject,
  Logger,
  Module,
  type DynamicModule,
  type INestApplicationContext,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { hawserNestLogger } from '#hawser/observability';
import {
  CAPABILITY_REPORTS,
  NatsTransportModule,
  ObservabilityModule,
  ObservabilityServerModule,
  PersistenceModule,
  type CapabilityReports,
  type HawserConfig,
  type NatsConnectionOptions,
} from '#hawser/platform';
import { createUpcasters } from '../../../eventstore/catalogue.js';
import { SchedulerModule } from './scheduler.module.js';

/** Logs the first report of each back end, so an operator sees which pools the scheduler knows. */
class FirstReportLog implements OnApplicationShutdown {
  private readonly logger = new Logger('scheduler');
  private readonly seen = new Set<string>();
  private readonly unsubscribe: () => void;

  constructor(@Inject(CAPABILITY_REPORTS) reports: CapabilityReports) {
    this.unsubscribe = reports.subscribe((report) => {
      if (this.seen.has(report.backend)) return;
      this.seen.add(report.backend);
      const pools = report.pools.map((pool) => pool.name).join(', ');
      this.logger.log(`pools of ${report.backend} (${report.availabilityZone}) reported: ${pools}`);
    });
  }

  onApplicationShutdown(): void {
    this.unsubscribe();
  }
}

/**
 * The scheduler process: places requested shares from the pools the share nodes report over
 * NATS. It reads the `backends` read model and writes no read model.
 */
@Module({})
class SchedulerProcessModule {
  static forRoot(config: HawserConfig, nats: NatsConnectionOptions): DynamicModule {
    return {
      module: SchedulerProcessModule,
      imports: [
        PersistenceModule.forRoot(config, createUpcasters()),
        NatsTransportModule.forRoot(nats),
        SchedulerModule.forRoot(),
        ObservabilityModule.forRoot(),
        ObservabilityServerModule.forRoot(),
      ],
      providers: [FirstReportLog],
    };
  }
}

export const createSchedulerApp = (
  config: HawserConfig,
  nats: NatsConnectionOptions,
  options: { logger?: false } = {},
): Promise<INestApplicationContext> =>
  NestFactory.createApplicationContext(SchedulerProcessModule.forRoot(config, nats), {
    logger: options.logger ?? hawserNestLogger('scheduler'),
  });
