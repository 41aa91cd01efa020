import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Injectable,
  Param,
  Put,
  Query,
  Req,
} from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { Request } from 'express';
import {
  ResetQuotaLimits,
  SetQuotaLimits,
  ShowQuota,
  ShowQuotaDefaults,
} from '#hawser/application';
import { quotaSetView } from '#hawser/api-contracts';
import { badRequest } from '../http/manila-error.js';
import { contextOf } from '../http/request-context.js';
import { requesterOf } from '../http/requester.js';
import { requireBodyKey } from '../http/validate-body.js';
import { viewContextOf } from '../http/view-context.js';
import { fromParam, project as projectNamed } from '../policy/policy-targets.js';
import { Policy, Since, Until } from '../policy/route-policy.decorators.js';
import { parseQuotaSetUpdate } from './quota-set-update.js';

const theProject = projectNamed(fromParam('project'));

/**
 * Manila's quota sets (reference 1.10, 3.9), served as /quota-sets from 2.7 and as
 * /os-quota-sets before (the two controllers below).
 */
@Injectable()
abstract class QuotaSetRoutes {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get(':project/defaults')
  @Policy('quota_set:show', theProject)
  async defaults(@Req() req: Request, @Param('project') project: string) {
    const ctx = this.readable(req);
    const defaults = await this.queries.execute(new ShowQuotaDefaults());
    return quotaSetView((r) => defaults[r], viewContextOf(ctx), project);
  }

  @Get(':project/detail')
  @Since('2.25')
  @Policy('quota_set:show', theProject)
  async detail(
    @Req() req: Request,
    @Param('project') project: string,
    @Query() query: Record<string, string>,
  ) {
    const ctx = this.readable(req, query);
    const { limits, inUse } = await this.queries.execute(new ShowQuota(project));
    return quotaSetView(
      (r) => ({ limit: limits[r], in_use: inUse[r], reserved: 0 }),
      viewContextOf(ctx),
      project,
      query.share_type !== undefined,
    );
  }

  @Get(':project')
  @Policy('quota_set:show', theProject)
  async show(
    @Req() req: Request,
    @Param('project') project: string,
    @Query() query: Record<string, string>,
  ) {
    const ctx = this.readable(req, query);
    const { limits } = await this.queries.execute(new ShowQuota(project));
    return quotaSetView(
      (r) => limits[r],
      viewContextOf(ctx),
      project,
      query.share_type !== undefined,
    );
  }

  @Put(':project')
  @Policy('quota_set:update', theProject)
  async update(
    @Req() req: Request,
    @Param('project') project: string,
    @Body() body: unknown,
    @Query() query: Record<string, string>,
  ) {
    const ctx = contextOf(req);
    refuseNarrowerQuotas(query);
    const update = parseQuotaSetUpdate(requireBodyKey(body, 'quota_set', 400), ctx.microversion);
    // An update that names no limit changes nothing, and records nothing (as in Manila).
    if (Object.keys(update.limits).length > 0) {
      const requester = requesterOf(ctx);
      await this.commands.execute(
        new SetQuotaLimits(project, update.limits, update.force, requester),
      );
    }
    const { limits } = await this.queries.execute(new ShowQuota(project));
    return quotaSetView((r) => limits[r], viewContextOf(ctx));
  }

  @Delete(':project')
  @HttpCode(202)
  @Policy('quota_set:delete', theProject)
  async remove(
    @Req() req: Request,
    @Param('project') project: string,
    @Query() query: Record<string, string>,
  ) {
    const ctx = contextOf(req);
    refuseNarrowerQuotas(query);
    await this.commands.execute(new ResetQuotaLimits(project, requesterOf(ctx)));
  }

  private readable(req: Request, query: Record<string, string> = {}) {
    const ctx = contextOf(req);
    if (query.user_id !== undefined && query.share_type !== undefined) {
      throw badRequest("'user_id' and 'share_type' values are mutually exclusive.");
    }
    return ctx;
  }
}

@Controller('v2/quota-sets')
@Since('2.7')
export class QuotaSetsController extends QuotaSetRoutes {}

@Controller('v2/os-quota-sets')
@Until('2.6')
export class LegacyQuotaSetsController extends QuotaSetRoutes {}

/**
 * Quotas per user or per share type are not kept: setting or deleting them is refused with a 400
 * (writing the project's limits instead would be wrong). Reading them answers the project's
 * limits, which is what Manila answers for a user or type that has none of its own.
 */
const refuseNarrowerQuotas = (query: Record<string, string>): void => {
  if (query.user_id !== undefined || query.share_type !== undefined) {
    throw badRequest(
      "Quotas per user or per share type are not supported; set the project's quotas.",
    );
  }
};
