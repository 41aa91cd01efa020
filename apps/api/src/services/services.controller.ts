import { Body, Controller, Get, Inject, Param, Put, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { CommandBus } from '@nestjs/cqrs';
import { ChangeServiceStatus } from '#hawser/application';
import { serviceSummaryView, serviceView, type ServiceRow } from '#hawser/api-contracts';
import { notFoundError } from '../http/manila-error.js';
import { contextOf } from '../http/request-context.js';
import { requesterOf } from '../http/requester.js';
import { serviceUpdateBody } from './service-update-body.js';
import { BACKENDS, type BackendDocument } from '#hawser/projections';
import type { DocumentStore } from '#hawser/read-models';
import { DOCUMENT_STORE, HAWSER_CONFIG, type HawserConfig } from '#hawser/platform';
import { Policy, Since, Until } from '../policy/route-policy.decorators.js';
import {
  lastReportOf,
  POOL_STATE_SOURCE,
  type PoolStateSource,
} from '../scheduler-stats/pool-state.source.js';

const FILTERS = ['host', 'binary', 'zone', 'state', 'status'] as const;

/**
 * GET /services (2.7+) and /os-services (up to 2.6), admin: Manila's service listing. One
 * manila-share per registered back end, up while its last capability report is younger than
 * the service-down time; the manila-scheduler when it runs in this process (a separate
 * scheduler sends no heartbeat the API could judge it by).
 */
@Controller('v2')
export class ServicesController {
  constructor(
    @Inject(DOCUMENT_STORE) private readonly documents: DocumentStore,
    @Inject(POOL_STATE_SOURCE) private readonly pools: PoolStateSource,
    @Inject(HAWSER_CONFIG) private readonly config: HawserConfig,
    private readonly commands: CommandBus,
  ) {}

  @Put('services/:action')
  @Since('2.7')
  @Policy('service:update')
  async update(@Req() req: Request, @Param('action') action: string, @Body() body: unknown) {
    return this.changeStatus(req, action, body);
  }

  @Put('os-services/:action')
  @Until('2.6')
  @Policy('service:update')
  async legacyUpdate(@Req() req: Request, @Param('action') action: string, @Body() body: unknown) {
    return this.changeStatus(req, action, body);
  }

  /** Manila's services update: `enable` or `disable`, answered with the summary view. */
  private async changeStatus(req: Request, action: string, body: unknown) {
    if (action !== 'enable' && action !== 'disable') {
      throw notFoundError(`Unknown action '${action}'`);
    }
    const { host, binary, reason } = serviceUpdateBody(body);
    const disabled = action === 'disable';
    const requester = requesterOf(contextOf(req));
    await this.commands.execute(
      new ChangeServiceStatus({ host, binary }, disabled, disabled ? reason : null, requester),
    );
    return serviceSummaryView({ host, binary, disabled });
  }

  @Get('services')
  @Since('2.7')
  @Policy('service:index')
  async list(@Query() query: Record<string, string>) {
    return this.services(query);
  }

  @Get('os-services')
  @Until('2.6')
  @Policy('service:index')
  async legacyList(@Query() query: Record<string, string>) {
    return this.services(query);
  }

  private async services(query: Record<string, string>) {
    const now = Date.now();
    const downAfterMs = this.config.serviceDownTimeS * 1000;
    const backends = await this.documents.find<BackendDocument>(
      BACKENDS,
      {},
      { sort: [['created_at', 1]] },
    );
    const rows: ServiceRow[] = [];
    if (this.pools.schedulerInProcess) {
      rows.push({
        id: 1,
        binary: 'manila-scheduler',
        host: 'hawser',
        zone: backends[0]?.availability_zone ?? 'nova',
        status: 'enabled',
        state: 'up',
        updated_at: new Date(now).toISOString(),
      });
    }
    for (const backend of backends) {
      const lastReport = lastReportOf(this.pools.registry, backend.backend);
      rows.push({
        id: rows.length + 1,
        binary: 'manila-share',
        host: backend.backend,
        zone: backend.availability_zone,
        status: backend.disabled ? 'disabled' : 'enabled',
        // A back end its node dropped is down at once, whatever it reported before.
        state:
          !backend.removed && lastReport !== undefined && now - lastReport <= downAfterMs
            ? 'up'
            : 'down',
        updated_at: lastReport === undefined ? null : new Date(lastReport).toISOString(),
      });
    }
    const wanted = FILTERS.filter((key) => query[key] !== undefined);
    return {
      services: rows
        .filter((row) => wanted.every((key) => String(row[key]) === query[key]))
        .map(serviceView),
    };
  }
}
