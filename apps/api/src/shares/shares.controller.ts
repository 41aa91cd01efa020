import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Put,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import {
  accessListEntryView,
  accessRuleView,
  AllowAccessDto,
  CreateShareDto,
  DenyAccessDto,
  legacyAccessState,
  ResizeShareDto,
  shareDetailView,
  shareSummaryView,
  toBoolean,
  UpdateShareDto,
} from '#hawser/api-contracts';
import { isAffinityKey, ownValue, type ShareStatus } from '#hawser/domain';
import type { ShareDocument } from '#hawser/projections';
import { Inject } from '@nestjs/common';
import type { DocumentStore } from '#hawser/read-models';
import { DOCUMENT_STORE } from '#hawser/platform';
import { forbiddenError, notFoundError } from '../http/manila-error.js';
import { statusArgument } from '../http/action-body.js';
import { metadataFromBody } from '../http/metadata-body.js';
import { requireAuth } from '../http/policy.js';
import { atLeast, contextOf, type RequestContext } from '../http/request-context.js';
import { runManilaAction, type ActionCall } from '../policy/manila-actions.js';
import { fromParam, share } from '../policy/policy-targets.js';
import { policyOf } from '../policy/request-policy.js';
import { ManilaAction, ManilaActions, Policy, Until } from '../policy/route-policy.decorators.js';
import { requireBodyKey, validateBody } from '../http/validate-body.js';
import { viewContextOf } from '../http/view-context.js';
import { nextPageLink } from '../http/next-page-link.js';
import { booleanParam } from '../http/list-query.js';
import { listShares } from './share-list.query.js';
import { SharesService } from './shares.service.js';

const now = () => new Date().toISOString();
const mayChangeAdminMetadata = (ctx: RequestContext) =>
  policyOf(ctx).allows('share:update_admin_only_metadata');
const theShare = share(fromParam('id'));

/** Manila's shares API (reference 3.4): create, list, show, update, delete, actions, metadata. */
@Controller('v2/shares')
export class SharesController {
  constructor(
    private readonly shares: SharesService,
    @Inject(DOCUMENT_STORE) private readonly documents: DocumentStore,
  ) {}

  private detail(doc: ShareDocument, ctx: RequestContext) {
    return shareDetailView(doc, viewContextOf(ctx));
  }

  @Post()
  @HttpCode(200)
  @Policy('share:create')
  async create(@Req() req: Request, @Body() body: unknown) {
    const ctx = contextOf(req);
    const dto = await validateBody(CreateShareDto, requireBodyKey(body, 'share'), 'share');
    const doc = await this.shares.create(dto, ctx, requireAuth(ctx));
    return { share: this.detail(doc, ctx) };
  }

  @Get()
  @Policy('share:get_all')
  async list(@Req() req: Request, @Query() query: Record<string, string>) {
    return this.page(req, query, (doc, ctx) => shareSummaryView(doc, viewContextOf(ctx)));
  }

  @Get('detail')
  @Policy('share:get_all')
  async listDetail(@Req() req: Request, @Query() query: Record<string, string>) {
    return this.page(req, query, (doc, ctx) => this.detail(doc, ctx));
  }

  private async page(
    req: Request,
    query: Record<string, string>,
    view: (doc: ShareDocument, ctx: RequestContext) => unknown,
  ) {
    const ctx = contextOf(req);
    const result = await listShares(this.documents, requireAuth(ctx), ctx.microversion, query);
    const body: Record<string, unknown> = { shares: result.shares.map((d) => view(d, ctx)) };
    if (result.nextMarker) {
      const params = new URLSearchParams({ ...query, marker: result.nextMarker });
      params.delete('offset');
      body.shares_links = nextPageLink(req, ctx, params);
    }
    if (atLeast(ctx.microversion, '2.42') && booleanParam('with_count', query.with_count)) {
      body.count = result.count;
    }
    return body;
  }

  @Get(':id')
  @Policy('share:get', theShare)
  async show(@Req() req: Request, @Param('id') id: string) {
    const ctx = contextOf(req);
    return { share: this.detail(await this.shares.find(id, requireAuth(ctx)), ctx) };
  }

  @Put(':id')
  @Policy('share:update', theShare)
  async update(@Req() req: Request, @Param('id') id: string, @Body() body: unknown) {
    const ctx = contextOf(req);
    const auth = requireAuth(ctx);
    const dto = await validateBody(UpdateShareDto, requireBodyKey(body, 'share'), 'share');
    const doc = await this.shares.find(id, auth);
    const isPublic =
      dto.is_public === undefined ? undefined : (toBoolean(dto.is_public) as boolean);
    if (isPublic) policyOf(ctx).enforce('share:set_public_share');
    await this.shares.run(doc.id, ctx, {
      type: 'UpdateShare',
      ...(dto.display_name !== undefined && { name: dto.display_name }),
      ...(dto.display_description !== undefined && { description: dto.display_description }),
      ...(isPublic !== undefined && { isPublic }),
      now: now(),
    });
    return { share: this.detail(await this.shares.find(doc.id, auth), ctx) };
  }

  @Delete(':id')
  @HttpCode(202)
  @Policy('share:delete', theShare)
  async remove(@Req() req: Request, @Param('id') id: string) {
    const ctx = contextOf(req);
    const doc = await this.shares.find(id, requireAuth(ctx));
    await this.shares.run(doc.id, ctx, { type: 'DeleteShare', force: false, now: now() });
  }

  @Post(':id/action')
  @HttpCode(202)
  @ManilaActions()
  action(@Req() req: Request, @Res({ passthrough: true }) res: Response, @Param('id') id: string) {
    return runManilaAction(this, contextOf(req), id, res);
  }

  @ManilaAction('reset_status')
  @Policy('share:reset_status', theShare)
  async resetStatus({ id, argument, ctx, auth }: ActionCall) {
    const status = statusArgument(argument);
    const doc = await this.shares.find(id, auth);
    await this.shares.run(doc.id, ctx, {
      type: 'ResetShareStatus',
      status: status as ShareStatus,
      now: now(),
    });
  }

  @ManilaAction('force_delete')
  @Policy('share:force_delete', theShare)
  async forceDelete({ id, ctx, auth }: ActionCall) {
    const doc = await this.shares.find(id, auth);
    await this.shares.run(doc.id, ctx, { type: 'DeleteShare', force: true, now: now() });
  }

  @ManilaAction('allow_access')
  @Policy('share:allow_access', theShare)
  async allowAccess({ id, argument, ctx, auth, res }: ActionCall) {
    const dto = await validateBody(AllowAccessDto, argument, 'access');
    const rule = await this.shares.allowAccess(id, dto, ctx, auth);
    const legacy = atLeast(ctx.microversion, '2.28')
      ? undefined
      : legacyAccessState(await this.shares.accessRules(rule.share_id, auth));
    res.status(200);
    return { access: accessRuleView(rule, viewContextOf(ctx), legacy) };
  }

  @ManilaAction('deny_access')
  @Policy('share:deny_access', theShare)
  async denyAccess({ id, argument, ctx, auth }: ActionCall) {
    const dto = await validateBody(DenyAccessDto, argument, 'access');
    await this.shares.denyAccess(id, dto.access_id, ctx, auth);
  }

  /** Replaced by GET /share-access-rules from 2.45. */
  @ManilaAction('access_list')
  @Until('2.44')
  @Policy('share:access_get_all', theShare)
  async accessList({ id, ctx, auth, res }: ActionCall) {
    const rules = await this.shares.accessRules(id, auth);
    const legacy = legacyAccessState(rules);
    res.status(200);
    return {
      access_list: rules.map((r) => accessListEntryView(r, viewContextOf(ctx), legacy)),
    };
  }

  @ManilaAction('extend')
  @Policy('share:extend', theShare)
  async extend({ id, argument, ctx, auth }: ActionCall) {
    const dto = await validateBody(ResizeShareDto, argument, 'extend');
    await this.shares.resize(id, 'extend', dto, ctx, auth);
  }

  @ManilaAction('shrink')
  @Policy('share:shrink', theShare)
  async shrink({ id, argument, ctx, auth }: ActionCall) {
    const dto = await validateBody(ResizeShareDto, argument, 'shrink');
    await this.shares.resize(id, 'shrink', dto, ctx, auth);
  }

  @Get(':id/metadata')
  @Policy('share:get_share_metadata', theShare)
  async metadata(@Req() req: Request, @Param('id') id: string) {
    const ctx = contextOf(req);
    return { metadata: (await this.shares.find(id, requireAuth(ctx))).metadata };
  }

  @Get(':id/metadata/:key')
  @Policy('share:get_share_metadata', theShare)
  async metadataItem(@Req() req: Request, @Param('id') id: string, @Param('key') key: string) {
    const ctx = contextOf(req);
    const doc = await this.shares.find(id, requireAuth(ctx));
    const value = ownValue(doc.metadata, key);
    if (value === undefined) throw notFoundError(`Metadata item was not found`);
    return { meta: { [key]: value } };
  }

  @Post(':id/metadata')
  @HttpCode(200)
  @Policy('share:update_share_metadata', theShare)
  async mergeMetadata(@Req() req: Request, @Param('id') id: string, @Body() body: unknown) {
    return this.changeMetadata(req, id, body, false);
  }

  @Put(':id/metadata')
  @Policy('share:update_share_metadata', theShare)
  async replaceMetadata(@Req() req: Request, @Param('id') id: string, @Body() body: unknown) {
    return this.changeMetadata(req, id, body, true);
  }

  @Delete(':id/metadata/:key')
  @Policy('share:delete_share_metadata', theShare)
  async deleteMetadataItem(
    @Req() req: Request,
    @Param('id') id: string,
    @Param('key') key: string,
  ) {
    const ctx = contextOf(req);
    const auth = requireAuth(ctx);
    const doc = await this.shares.find(id, auth);
    if (isAffinityKey(key) && !mayChangeAdminMetadata(ctx)) {
      throw forbiddenError('Cannot set or update admin only metadata.');
    }
    if (!Object.hasOwn(doc.metadata, key)) throw notFoundError('Metadata item was not found');
    await this.shares.run(doc.id, ctx, {
      type: 'ChangeShareMetadata',
      set: {},
      unset: [key],
      now: now(),
    });
  }

  private async changeMetadata(req: Request, id: string, body: unknown, replace: boolean) {
    const ctx = contextOf(req);
    const auth = requireAuth(ctx);
    const set = metadataFromBody(body);
    const doc = await this.shares.find(id, auth);
    const mayChangeAdminKeys = mayChangeAdminMetadata(ctx);
    if (!mayChangeAdminKeys && Object.keys(set).some(isAffinityKey)) {
      throw forbiddenError('Cannot set or update admin only metadata.');
    }
    // Replacing keeps admin-only keys for those who may not change them (reference 3.4.4).
    const unset = replace
      ? Object.keys(doc.metadata).filter(
          (k) => !Object.hasOwn(set, k) && (mayChangeAdminKeys || !isAffinityKey(k)),
        )
      : [];
    await this.shares.run(doc.id, ctx, { type: 'ChangeShareMetadata', set, unset, now: now() });
    return { metadata: (await this.shares.find(doc.id, auth)).metadata };
  }
}
