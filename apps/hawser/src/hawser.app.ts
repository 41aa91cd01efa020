import 'reflect-metadata';
import { Module, type DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { BackendConfig } from '#hawser/drivers';
import { hawserNestLogger } from '#hawser/observability';
import {
  CAPABILITY_REPORTS,
  InProcessCapabilityReports,
  ObservabilityModule,
  ObservabilityServerModule,
  PersistenceModule,
  ProjectionsModule,
  type HawserConfig,
} from '#hawser/platform';
import { QuotaWorkflowsModule } from '../../api/src/quota-sets/quota-workflows.module.js';
import { ShareWorkflowsModule } from '../../api/src/shares/share-workflows.module.js';
import { PoolStateModule } from '../../api/src/scheduler-stats/pool-state.module.js';
import { createUpcasters } from '../../../eventstore/catalogue.js';
import { ApiModule } from '../../api/src/api.module.js';
import { AUTHENTICATOR, type Authenticator } from '../../api/src/http/authenticator.js';
import { consoleRouter } from '../../api/src/console/console-router.js';
import { configureHttpPipeline } from '../../api/src/http/http-pipeline.js';
import { ExpressAdapterWithPrototypes } from '../../api/src/http/express-adapter.js';
import { SchedulerModule } from '../../scheduler/src/scheduler.module.js';
import { SchedulerService } from '../../scheduler/src/scheduler.service.js';
import { ShareNodeModule } from '../../share-node/src/share-node.module.js';

/** The transport between the apps when they share one process. */
@Module({})
class InProcessTransportModule {
  static forRoot(): DynamicModule {
    return {
      module: InProcessTransportModule,
      global: true,
      providers: [{ provide: CAPABILITY_REPORTS, useValue: new InProcessCapabilityReports() }],
      exports: [CAPABILITY_REPORTS],
    };
  }
}

@Module({})
export class HawserModule {
  static forRoot(config: HawserConfig, backends: readonly BackendConfig[]): DynamicModule {
    return {
      module: HawserModule,
      imports: [
        PersistenceModule.forRoot(config, createUpcasters()),
        InProcessTransportModule.forRoot(),
        ProjectionsModule.forRoot(),
        ObservabilityModule.forRoot(),
        ObservabilityServerModule.forRoot(),
        SchedulerModule.forRoot({ configuredBackends: backends.map((b) => b.name) }),
        ShareNodeModule.forRoot({ nodeName: 'embedded', backends }),
        ApiModule,
        QuotaWorkflowsModule,
        ShareWorkflowsModule,
        PoolStateModule.fromScheduler(SchedulerService, (scheduler) => scheduler.registry),
      ],
    };
  }
}

/**
 * The all-in-one service: api, scheduler and one share node in a single process, the embedded
 * default. Tests build it the same way `main.ts` does.
 */
export const createHawserApp = async (
  config: HawserConfig,
  backends: readonly BackendConfig[],
  options: { logger?: false } = {},
): Promise<NestExpressApplication> => {
  const app = await NestFactory.create<NestExpressApplication>(
    HawserModule.forRoot(config, backends),
    new ExpressAdapterWithPrototypes(),
    { bodyParser: false, logger: options.logger ?? hawserNestLogger('hawser') },
  );
  configureHawserApp(app, config);
  return app;
};

/** The HTTP pipeline in front of the all-in-one module (also for tests that build it themselves). */
export const configureHawserApp = (app: NestExpressApplication, config: HawserConfig): void =>
  configureHttpPipeline(app, {
    bodyLimit: config.bodyLimit,
    authenticator: app.get<Authenticator>(AUTHENTICATOR),
    console: consoleRouter(config),
  });
