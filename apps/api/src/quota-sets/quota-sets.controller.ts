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
import { contextOf } from '../http/request-context.js';
import { readerOf, requesterOf } from '../http/requester.js';
import { requireBodyKey } from '../http/validate-body.js';
import { viewContextOf } from '../http/view-context.js';
import { fromParam, project as projectNamed } from '../policy/policy-targets.js';
import { Policy, Since, Until } from '../policy/route-policy.decorators.js';
import { quotaScopeOf, refuseShareTypeBefore239, type QuotaScopeQuery } from './quota-scope.js';
import { parseQuotaSetUpdate } from './quota-set-update.js';

const theProject = projectNamed(fromParam('project'));

/**
 * Manila's quota sets (reference 1.10, 3.9), served as /quota-sets from 2.7 and as
 * /os-quota-sets before (the two controllers below): a project's, or with `?user_id=` one
 * user's in it, or from 2.39 with `?share_type=` one share type's in it.
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
    const ctx = contextOf(req);
    const defaults = await this.queries.execute(new ShowQuotaDefaults());
    return quotaSetView((r) => defaults[r], viewContextOf(ctx), project);
  }

  @Get(':project/detail')
  @Since('2.25')
  @Policy('quota_set:show', theProject)
  async detail(
    @Req() req: Request,
    @Param('project') project: string,
    @Query() query: QuotaScopeQuery,
  ) {
    const ctx = contextOf(req);
    refuseShareTypeBefore239(query, ctx.microversion);
    const scope = await quotaScopeOf(query, this.queries, readerOf(ctx));
    const { limits, inUse } = await this.queries.execute(new ShowQuota(project, scope));
    return quotaSetView(
      (r) => ({ limit: limits[r], in_use: inUse[r], reserved: 0 }),
      viewContextOf(ctx),
      project,
      scope.kind === 'share_type',
    );
  }

  @Get(':project')
  @Policy('quota_set:show', theProject)
  async show(
    @Req() req: Request,
    @Param('project') project: string,
    @Query() query: QuotaScopeQuery,
  ) {
    const ctx = contextOf(req);
    refuseShareTypeBefore239(query, ctx.microversion);
    const scope = await quotaScopeOf(query, this.queries, readerOf(ctx));
    const { limits } = await this.queries.execute(new ShowQuota(project, scope));
    return quotaSetView((r) => limits[r], viewContextOf(ctx), project, scope.kind === 'share_type');
  }

  @Put(':project')
  @Policy('quota_set:update', theProject)
  async update(
    @Req() req: Request,
    @Param('project') project: string,
    @Body() body: unknown,
    @Query() query: QuotaScopeQuery,
  ) {
    const ctx = contextOf(req);
    refuseShareTypeBefore239(query, ctx.microversion);
    const quotaSet = requireBodyKey(body, 'quota_set', 400);
    const forShareType = Boolean(query.share_type) && !query.user_id;
    const update = parseQuotaSetUpdate(quotaSet, ctx.microversion, forShareType);
    const requester = requesterOf(ctx);
    const scope = await quotaScopeOf(query, this.queries, requester);
    await this.commands.execute(
      new SetQuotaLimits(project, scope, update.limits, update.force, requester),
    );
    const { limits } = await this.queries.execute(new ShowQuota(project, scope));
    // Manila's answer names no id here (a quirk kept).
    return quotaSetView((r) => limits[r], viewContextOf(ctx), undefined, forShareType);
  }

  @Delete(':project')
  @HttpCode(202)
  @Policy('quota_set:delete', theProject)
  async remove(
    @Req() req: Request,
    @Param('project') project: string,
    @Query() query: QuotaScopeQuery,
  ) {
    const ctx = contextOf(req);
    refuseShareTypeBefore239(query, ctx.microversion);
    const requester = requesterOf(ctx);
    const scope = await quotaScopeOf(query, this.queries, requester);
    await this.commands.execute(new ResetQuotaLimits(project, scope, requester));
  }
}

@Controller('v2/quota-sets')
@Since('2.7')
export class QuotaSetsController extends QuotaSetRoutes {}

@Controller('v2/os-quota-sets')
@Until('2.6')
export class LegacyQuotaSetsController extends QuotaSetRoutes {}
