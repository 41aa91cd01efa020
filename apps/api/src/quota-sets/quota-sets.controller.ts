import { Body, Controller, Delete, Get, HttpCode, Param, Put, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { quotaSetView } from '#hawser/api-contracts';
import { commandContextOf } from '../http/command-context.js';
import { badRequest, forbiddenError, notFoundError } from '../http/manila-error.js';
import { requireAdmin, requireAuth } from '../http/policy.js';
import { atLeast, contextOf, type RequestContext } from '../http/request-context.js';
import { requireBodyKey } from '../http/validate-body.js';
import { viewContextOf } from '../http/view-context.js';
import { parseQuotaSetUpdate } from './quota-set-update.js';
import { QuotasService } from './quotas.service.js';

const LEGACY_PREFIX = '/v2/os-quota-sets';

/**
 * Manila's quota sets (reference 1.10, 3.9): /quota-sets from 2.7, /os-quota-sets before.
 * Reads are for the project's own users and admins; changes are admin-only.
 */
@Controller(['v2/quota-sets', 'v2/os-quota-sets'])
export class QuotaSetsController {
  constructor(private readonly quotas: QuotasService) {}

  @Get(':project/defaults')
  async defaults(@Req() req: Request, @Param('project') project: string) {
    const ctx = this.readable(req, project);
    return quotaSetView((r) => this.quotas.defaults[r], viewContextOf(ctx), project);
  }

  @Get(':project/detail')
  async detail(
    @Req() req: Request,
    @Param('project') project: string,
    @Query() query: Record<string, string>,
  ) {
    const ctx = this.readable(req, project, query);
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
  async show(
    @Req() req: Request,
    @Param('project') project: string,
    @Query() query: Record<string, string>,
  ) {
    const ctx = this.readable(req, project, query);
    const { limits } = await this.quotas.figures(project);
    return quotaSetView(
      (r) => limits[r],
      viewContextOf(ctx),
      project,
      query.share_type !== undefined,
    );
  }

  @Put(':project')
  async update(
    @Req() req: Request,
    @Param('project') project: string,
    @Body() body: unknown,
    @Query() query: Record<string, string>,
  ) {
    const ctx = this.versioned(req);
    requireAdmin(ctx, 'quota_set:update');
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
  async remove(
    @Req() req: Request,
    @Param('project') project: string,
    @Query() query: Record<string, string>,
  ) {
    const ctx = this.versioned(req);
    requireAdmin(ctx, 'quota_set:delete');
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

  /** Reader rules: one's own project, or any for admins (authorize_project_context). */
  private readable(req: Request, project: string, query: Record<string, string> = {}) {
    const ctx = this.versioned(req);
    const auth = requireAuth(ctx);
    if (!auth.isAdmin && auth.projectId !== project) {
      throw forbiddenError(`Policy doesn't allow quota_set:show to be performed.`);
    }
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
