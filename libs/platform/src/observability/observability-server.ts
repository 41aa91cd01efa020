import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  Injectable,
  Logger,
  Module,
  type DynamicModule,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { metricsBind, metricsPort } from '#hawser/observability';
import { listenProblem } from '../process/port-check.js';
import { StartupRefusal } from '../process/startup-refusal.js';
import { HealthProbes } from './health-probes.js';
import { ServiceMetrics } from './service-metrics.js';

/**
 * `/metrics`, `/health/live` and `/health/ready` of a process on `HAWSER_METRICS_PORT` at
 * `HAWSER_METRICS_BIND` (loopback by default), without a token: the scrape Prometheus and
 * orchestrators expect, for processes without an HTTP API (a scheduler, a share node) and beside
 * the API's own token-protected `/metrics` (the API and all-in-one processes, Keystone or not).
 * Off when the port is unset.
 */
@Injectable()
export class ObservabilityServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('observability');
  private server: http.Server | undefined;

  constructor(
    private readonly metrics: ServiceMetrics,
    private readonly probes: HealthProbes,
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
    const host = metricsBind();
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error) => {
        const problem = listenProblem(
          error,
          port,
          host,
          'HAWSER_METRICS_PORT, HAWSER_METRICS_BIND',
        );
        reject(problem ? new StartupRefusal(problem) : error);
      });
      server.listen(port, host, () => resolve());
    });
    this.server = server;
    this.logger.log(`metrics and health at http://${host}:${port}/metrics (no token)`);
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
