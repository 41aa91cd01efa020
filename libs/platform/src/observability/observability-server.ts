import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  Inject,
  Injectable,
  Logger,
  Module,
  type DynamicModule,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { metricsPort } from '#hawser/observability';
import { HAWSER_CONFIG, type HawserConfig } from '../config/hawser-config.js';
import { HealthProbes } from './health-probes.js';
import { ServiceMetrics } from './service-metrics.js';

/**
 * `/metrics`, `/health/live` and `/health/ready` of a process without an HTTP API (a scheduler,
 * a share node), on `HAWSER_METRICS_PORT` at `HAWSER_BIND`: a separate bind, so it is served
 * without a token to the network the operator binds it to. Off when the port is unset.
 */
@Injectable()
export class ObservabilityServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('observability');
  private server: http.Server | undefined;

  constructor(
    private readonly metrics: ServiceMetrics,
    private readonly probes: HealthProbes,
    @Inject(HAWSER_CONFIG) private readonly config: HawserConfig,
  ) {}

  /** Where it listens, once it does. */
  get address(): AddressInfo | undefined {
    return (this.server?.address() as AddressInfo | null) ?? undefined;
  }

  async onApplicationBootstrap(): Promise<void> {
    const port = metricsPort();
    if (port === undefined) return;
    const server = http.createServer((req, res) => {
      this.answer(req.url ?? '/', res).catch((error: unknown) => {
        this.logger.error(error instanceof Error ? error.message : String(error));
        if (!res.headersSent) res.writeHead(500).end();
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, this.config.bind, () => resolve());
    });
    this.server = server;
    this.logger.log(`metrics and health at http://${this.config.bind}:${port}/metrics`);
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    await new Promise((resolve) => server.close(resolve));
  }

  private async answer(url: string, res: http.ServerResponse): Promise<void> {
    const path = url.split('?')[0];
    if (path === '/metrics') {
      const text = await this.metrics.render();
      res.writeHead(200, { 'Content-Type': this.metrics.contentType }).end(text);
    } else if (path === '/health/live') {
      json(res, 200, { status: 'ok' });
    } else if (path === '/health/ready') {
      const results = [...(await this.probes.check())];
      const ready = results.every(([, result]) => result.ready);
      const details = Object.fromEntries(
        results.map(([name, { ready: up, ...detail }]) => [
          name,
          { status: up ? 'up' : 'down', ...detail },
        ]),
      );
      json(res, ready ? 200 : 503, { status: ready ? 'ok' : 'error', details });
    } else {
      json(res, 404, { status: 'not found' });
    }
  }
}

const json = (res: http.ServerResponse, status: number, body: unknown): void => {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
};

/** The observability endpoints of a scheduler or share-node process (needs ObservabilityModule). */
@Module({})
export class ObservabilityServerModule {
  static forRoot(): DynamicModule {
    return {
      module: ObservabilityServerModule,
      providers: [ObservabilityServer],
      exports: [ObservabilityServer],
    };
  }
}
