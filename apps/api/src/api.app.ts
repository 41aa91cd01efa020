import 'reflect-metadata';
import { Module, type DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { hawserNestLogger } from '#hawser/observability';
import {
  NatsTransportModule,
  ObservabilityModule,
  ObservabilityServerModule,
  PersistenceModule,
  ProjectionsModule,
  type HawserConfig,
} from '#hawser/platform';
import { QuotaWorkflowsModule } from './quota-sets/quota-workflows.module.js';
import { ShareWorkflowsModule } from './shares/share-workflows.module.js';
import { PoolStateModule } from './scheduler-stats/pool-state.module.js';
import { createUpcasters } from '../../../eventstore/catalogue.js';
import { ApiModule } from './api.module.js';
import { AUTHENTICATOR, type Authenticator } from './http/authenticator.js';
import { consoleRouter } from './console/console-router.js';
import { configureHttpPipeline } from './http/http-pipeline.js';
import { ExpressAdapterWithPrototypes } from './http/express-adapter.js';

/**
 * The API process: Manila's HTTP API and the projections. It is the one kind of process that
 * writes the read models (the scheduler and the share nodes only read them); with NATS, several
 * API processes run and the one holding the projector lease projects.
 */
@Module({})
class ApiProcessModule {
  static forRoot(config: HawserConfig, candidate: boolean): DynamicModule {
    // With NATS, the API hears the capability reports too (for the pools and services views).
    const nats = config.natsServers ? [...config.natsServers] : undefined;
    return {
      module: ApiProcessModule,
      imports: [
        PersistenceModule.forRoot(config, createUpcasters()),
        ProjectionsModule.forRoot({ elected: true, candidate }),
        ObservabilityModule.forRoot(),
        ObservabilityServerModule.forRoot(),
        ApiModule,
        QuotaWorkflowsModule,
        ShareWorkflowsModule,
        ...(nats ? [NatsTransportModule.forRoot({ servers: nats, name: 'hawser-api' })] : []),
        PoolStateModule.fromCapabilityReports(),
      ],
    };
  }
}

export const createApiApp = async (
  config: HawserConfig,
  options: {
    logger?: false;
    /** Whether this process may take the projector lease (not a cluster's serving process). */
    projectorCandidate?: boolean;
  } = {},
): Promise<NestExpressApplication> => {
  const module = ApiProcessModule.forRoot(config, options.projectorCandidate ?? true);
  const app = await NestFactory.create<NestExpressApplication>(
    module,
    new ExpressAdapterWithPrototypes(),
    {
      bodyParser: false,
      logger: options.logger ?? hawserNestLogger('api'),
    },
  );
  configureHttpPipeline(app, {
    bodyLimit: config.bodyLimit,
    authenticator: app.get<Authenticator>(AUTHENTICATOR),
    console: consoleRouter(config),
  });
  return app;
};
