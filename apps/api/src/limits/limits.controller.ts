import { Controller, Get, Req } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { Request } from 'express';
import { ShowQuota } from '#hawser/application';
import { limitsView } from '#hawser/api-contracts';
import { requireAuth } from '../http/policy.js';
import { contextOf } from '../http/request-context.js';
import { viewContextOf } from '../http/view-context.js';
import { Policy } from '../policy/route-policy.decorators.js';

/**
 * GET /limits: the caller's project's absolute limits (`manila absolute-limits`). Manila checks
 * no rule here; they are the project's quota figures, so Hawser asks what reading those needs.
 */
@Controller('v2')
export class LimitsController {
  constructor(private readonly queries: QueryBus) {}

  @Get('limits')
  @Policy('quota_set:show')
  async show(@Req() req: Request) {
    const ctx = contextOf(req);
    const auth = requireAuth(ctx);
    const { limits, inUse } = await this.queries.execute(new ShowQuota(auth.projectId));
    return limitsView(limits, inUse, viewContextOf(ctx));
  }
}
