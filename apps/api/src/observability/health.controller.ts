import { Controller, Get, Header, Res, ServiceUnavailableException } from '@nestjs/common';
import {
  HealthCheck,
  HealthCheckService,
  HealthIndicatorService,
  type HealthIndicatorResult,
} from '@nestjs/terminus';
import type { Response } from 'express';
import { HealthProbes } from '#hawser/platform';
import { Public } from '../policy/route-policy.decorators.js';

/**
 * Liveness and readiness for orchestrators and load balancers, without a token (as Manila's
 * `/healthcheck`). Live: the process answers. Ready: every part of this process can do its
 * work now (event store, projections, scheduler, share node, NATS); 503 naming what is not.
 */
@Controller()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly probes: HealthProbes,
  ) {}

  @Get('health/live')
  @Public()
  @HealthCheck()
  live() {
    return this.health.check([
      () => this.indicators.check('process').up({ uptimeSeconds: Math.round(process.uptime()) }),
    ]);
  }

  @Get('health/ready')
  @Public()
  @HealthCheck()
  async ready(@Res({ passthrough: true }) res: Response) {
    const results = await this.probes.check();
    const indicators = [...results].map(
      ([name, { ready, ...detail }]) =>
        (): HealthIndicatorResult => {
          const indicator = this.indicators.check(name);
          return ready ? indicator.up(detail) : indicator.down(detail);
        },
    );
    try {
      return await this.health.check(indicators);
    } catch (error) {
      // Terminus's own body (what is up, what is down), not a Manila fault: it is no API error.
      if (!(error instanceof ServiceUnavailableException)) throw error;
      res.status(503);
      return error.getResponse();
    }
  }

  /** Manila's path, kept for what already polls it: `OK` when ready, 503 with the reason when not. */
  @Get('healthcheck')
  @Public()
  @Header('Content-Type', 'text/plain; charset=utf-8')
  async healthcheck(@Res({ passthrough: true }) res: Response) {
    const notReady = [...(await this.probes.check())].filter(([, result]) => !result.ready);
    if (notReady.length === 0) return 'OK';
    res.status(503);
    return `NOT READY: ${notReady.map(([name]) => name).join(', ')}`;
  }
}
