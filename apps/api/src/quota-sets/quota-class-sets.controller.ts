import { Body, Controller, Get, Injectable, Param, Put, Req } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { Request } from 'express';
import { SetQuotaClassLimits, ShowQuotaClass } from '#hawser/application';
import { isQuotaResource, type QuotaResource } from '#hawser/domain';
import { quotaClassSetView } from '#hawser/api-contracts';
import { badRequest, forbiddenError } from '../http/manila-error.js';
import { requireAuth } from '../http/policy.js';
import { contextOf } from '../http/request-context.js';
import { requesterOf } from '../http/requester.js';
import { requireBodyKey } from '../http/validate-body.js';
import { viewContextOf } from '../http/view-context.js';
import { Policy, Since, Until } from '../policy/route-policy.decorators.js';

/**
 * The limits a PUT names: Manila takes every key that is a quota resource as an integer and
 * ignores the others; a value that is no integer is a 400 here (Manila's int() fails with 500).
 */
const classLimitsOf = (body: Readonly<Record<string, unknown>>) => {
  const limits: Partial<Record<QuotaResource, number>> = {};
  for (const [key, value] of Object.entries(body)) {
    if (!isQuotaResource(key)) continue;
    const limit =
      typeof value === 'number' || (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value))
        ? Number(value)
        : NaN;
    if (!Number.isInteger(limit)) throw badRequest(`Quota limit for ${key} must be an integer.`);
    limits[key] = limit;
  }
  return limits;
};

/**
 * Manila's quota class sets (quota_class_sets.py), as /quota-class-sets from 2.7 and as
 * /os-quota-class-sets before. The `default` class's limits are every project's defaults.
 */
@Injectable()
abstract class QuotaClassSetRoutes {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get(':className')
  @Policy('quota_class_set:show')
  async show(@Req() req: Request, @Param('className') className: string) {
    const ctx = contextOf(req);
    // Manila's authorize_quota_class_context: a non-admin only reads its own class, and
    // Keystone tokens name none.
    if (!requireAuth(ctx).isAdmin) {
      throw forbiddenError("Policy doesn't allow quota_class_set:show to be performed.");
    }
    const limits = await this.queries.execute(new ShowQuotaClass(className));
    return quotaClassSetView((r) => limits[r], viewContextOf(ctx), className);
  }

  @Put(':className')
  @Policy('quota_class_set:update')
  async update(@Req() req: Request, @Param('className') className: string, @Body() body: unknown) {
    const ctx = contextOf(req);
    const limits = classLimitsOf(requireBodyKey(body, 'quota_class_set', 400));
    await this.commands.execute(new SetQuotaClassLimits(className, limits, requesterOf(ctx)));
    const now = await this.queries.execute(new ShowQuotaClass(className));
    return quotaClassSetView((r) => now[r], viewContextOf(ctx));
  }
}

@Controller('v2/quota-class-sets')
@Since('2.7')
export class QuotaClassSetsController extends QuotaClassSetRoutes {}

@Controller('v2/os-quota-class-sets')
@Until('2.6')
export class LegacyQuotaClassSetsController extends QuotaClassSetRoutes {}
