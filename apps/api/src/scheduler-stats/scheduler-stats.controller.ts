import { Controller, Get, Inject, Query, Req } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { Request } from 'express';
import { ShowShareType, type Reader } from '#hawser/application';
import { poolDetailView, poolSummaryView } from '#hawser/api-contracts';
import { listPools, type PoolView } from '#hawser/scheduler';
import { badRequest, ManilaHttpError } from '../http/manila-error.js';
import { Policy } from '../policy/route-policy.decorators.js';
import { atLeast, contextOf } from '../http/request-context.js';
import { readerOf } from '../http/requester.js';
import { POOL_STATE_SOURCE, type PoolStateSource } from './pool-state.source.js';

/**
 * GET /scheduler-stats/pools[/detail] (reference 1.9 and 3.9): the scheduler's live
 * pools, filtered by prefix-anchored regular expressions on name, host, backend and pool (any
 * other key excludes every pool) and, from 2.23, by a share type's extra specs.
 */
@Controller('v2/scheduler-stats/pools')
export class SchedulerStatsController {
  constructor(
    @Inject(POOL_STATE_SOURCE) private readonly pools: PoolStateSource,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @Policy('scheduler_stats:pools:index')
  async list(@Req() req: Request, @Query() query: Record<string, string>) {
    return { pools: (await this.find(req, query)).map(poolSummaryView) };
  }

  @Get('detail')
  @Policy('scheduler_stats:pools:detail')
  async detail(@Req() req: Request, @Query() query: Record<string, string>) {
    return { pools: (await this.find(req, query)).map(poolDetailView) };
  }

  private async find(req: Request, query: Record<string, string>): Promise<PoolView[]> {
    const ctx = contextOf(req);
    const reader = readerOf(ctx);
    const filters = { ...query };
    let extraSpecs: Record<string, string> | undefined;
    // Before 2.23 share_type is no filter of its own: an unknown key, which excludes every pool.
    if (atLeast(ctx.microversion, '2.23') && filters.share_type !== undefined) {
      const name = filters.share_type;
      delete filters.share_type;
      extraSpecs = (await this.shareTypeOrBadRequest(name, reader)).extra_specs;
    }
    try {
      return listPools(this.pools.registry, Date.now(), filters, extraSpecs);
    } catch (error) {
      if (error instanceof SyntaxError) throw badRequest(`Invalid filter: ${error.message}`);
      throw error;
    }
  }

  private async shareTypeOrBadRequest(name: string, reader: Reader) {
    try {
      return await this.queries.execute(new ShowShareType(name, reader));
    } catch (error) {
      if (error instanceof ManilaHttpError && error.status === 404) {
        throw badRequest(`Share type ${name} not found.`);
      }
      throw error;
    }
  }
}
