import { Body, Controller, Delete, Get, HttpCode, Param, Put, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { quotaSetView } from '#hawser/api-contracts';
import { commandContextOf } from '../http/command-context.js';
import { badRequest, notFoundError } from '../http/manila-error.js';
import { atLeast, contextOf, type RequestContext } from '../http/request-context.js';
import { requireBodyKey } from '../http/validate-body.js';
import { viewContextOf } from '../http/view-context.js';
import { fromParam, project as projectNamed } from '../policy/policy-targets.js';
import { Policy } from '../policy/route-policy.decorators.js';
import { parseQuotaSetUpdate } from './quota-set-update.js';
import { QuotasService } from './quotas.service.js';

const LEGACY_PREFIX = '/v2/os-quota-sets';
const theProject = projectNamed(fromParam('project'));

/** Manila's quota sets (reference 1.10, 3.9): /quota-sets from 2.7, /os-quota-sets before. */
@Controller(['v2/quota-sets', 'v2/os-quota-sets'])
export class QuotaSetsController {
  constructor(private readonly quotas: QuotasService) {}

  @Get(':project/defaults')
  @Policy('quota_set:show', theProject)
  async defaults(@Req() req: Request, @Param('project') project: string) {
    const ctx = this.readable(req);
    return quotaSetView((r) => this.quotas.defaults[r], viewContextOf(ctx), project);
  }

  @Get(':project/detail')
  @Policy('quota_set:show', theProject)
  async detail(
    @Req() req: Request,
    @Param('project') project: string,
    @Query() query: Record<string, string>,
  ) {
    const ctx = this.readable(req, query);
    if (!atLeast(ctx.microversion, '2.25')) throw notFoundError('The resource could not be found.');
    const { limits, inUse } = await this.quotas.figures(project);
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
    const { limits } = await this.quotas.figures(project);
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
    const ctx = this.versioned(req);
    refuseNarrowerQuotas(query);
    const update = parseQuotaSetUpdate(requireBodyKey(body, 'quota_set', 400), ctx.microversion);
    // An update that names no limit changes nothing, and records nothing (as in Manila).
    if (Object.keys(update.limits).length > 0) {
      await this.quotas.setLimits(project, update.limits, update.force, commandContextOf(ctx));
    }
    const { limits } = await this.quotas.figures(project);
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
    const ctx = this.versioned(req);
    refuseNarrowerQuotas(query);
    await this.quotas.resetLimits(project, commandContextOf(ctx));
  }

  /** The path must match the microversion: os-quota-sets up to 2.6, quota-sets from 2.7. */
  private versioned(req: Request): RequestContext {
    const ctx = contextOf(req);
    const legacy = req.path.startsWith(LEGACY_PREFIX);
    if (legacy === atLeast(ctx.microversion, '2.7')) {
      throw notFoundError('The resource could not be found.');
    }
    return ctx;
  }

  private readable(req: Request, query: Record<string, string> = {}) {
    const ctx = this.versioned(req);
    if (query.user_id !== undefined && query.share_type !== undefined) {
      throw badRequest("'user_id' and 'share_type' values are mutually exclusive.");
    }
    return ctx;
  }
}

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
