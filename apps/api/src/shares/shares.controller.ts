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
  shareDetailView,
  shareSummaryView,
  strictBoolean,
  UpdateShareDto,
} from '#hawser/api-contracts';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  AllowAccess,
  CreateShare,
  CreateShareFromSnapshot,
  DeleteShare,
  DenyAccess,
  booleanParam,
  ExtendShare,
  ListAccessRules,
  ListShares,
  ResetShareStatus,
  RevertShare,
  UnmanageShare,
  RestoreShare,
  SetShareMetadata,
  SoftDeleteShare,
  ShowShare,
  ShrinkShare,
  UnsetShareMetadata,
  UpdateShare,
} from '#hawser/application';
import { ownValue, type ShareStatus } from '#hawser/domain';
import type { ShareDocument } from '#hawser/projections';
import { metadataItemNotFound } from '../http/manila-error.js';
import { statusArgument } from '../http/action-body.js';
import { metadataFromBody, metadataItemFromBody } from '../http/metadata-body.js';
import { atLeast, contextOf, type RequestContext } from '../http/request-context.js';
import { readerOf, requesterOf } from '../http/requester.js';
import { runManilaAction, type ActionCall } from '../policy/manila-actions.js';
import { fromParam, share } from '../policy/policy-targets.js';
import { policyOf } from '../policy/request-policy.js';
import {
  ManilaAction,
  ManilaActions,
  Policy,
  Since,
  Until,
} from '../policy/route-policy.decorators.js';
import { shareMigrationActions } from './share-migration.actions.js';
import { requireBodyKey, validateBody } from '../http/validate-body.js';
import { viewContextOf } from '../http/view-context.js';
import { nextPageLink } from '../http/next-page-link.js';
import { keptViews } from '../http/kept-views.js';
import {
  jsonArrayChunks,
  JsonBytes,
  type JsonChunks,
  jsonObjectChunks,
  keptJson,
} from '../http/json-answer.js';

const theShare = share(fromParam('id'));

/**
 * A share read again at the same revision is the same frozen document: its views are kept too,
 * and so is each view's JSON text, which answers splice.
 */
const shareDetail = keptViews(shareDetailView);
const shareSummary = keptViews(shareSummaryView);

/**
 * Manila's shares API (reference 3.4): create, list, show, update, delete, actions, metadata.
 * Each route turns its request into a use case's command or query and its answer into a view.
 */
@Controller('v2/shares')
export class SharesController {
  private readonly migration: ReturnType<typeof shareMigrationActions>;

  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {
    this.migration = shareMigrationActions(commands, queries);
  }

  private detail(doc: ShareDocument, ctx: RequestContext) {
    return shareDetail(doc, viewContextOf(ctx));
  }

  @Post()
  @HttpCode(200)
  @Policy('share:create')
  async create(@Req() req: Request, @Body() body: unknown) {
    const ctx = contextOf(req);
    const dto = await validateBody(CreateShareDto, requireBodyKey(body, 'share'), 'share');
    const requester = requesterOf(ctx);
    const doc = await this.commands.execute(
      dto.snapshot_id
        ? new CreateShareFromSnapshot({ ...dto, snapshot_id: dto.snapshot_id }, requester)
        : new CreateShare(dto, requester),
    );
    return { share: this.detail(doc, ctx) };
  }

  @Get()
  @Policy('share:get_all')
  async list(@Req() req: Request, @Query() query: Record<string, string>) {
    return this.page(req, query, (doc, ctx) => shareSummary(doc, viewContextOf(ctx)));
  }

  @Get('detail')
  @Policy('share:get_all')
  async listDetail(@Req() req: Request, @Query() query: Record<string, string>) {
    return this.page(req, query, (doc, ctx) => this.detail(doc, ctx));
  }

  private async page(
    req: Request,
    query: Record<string, string>,
    view: (doc: ShareDocument, ctx: RequestContext) => object,
  ) {
    const ctx = contextOf(req);
    // Three filters have rules of their own, checked when given (Manila's share API `_get_all`).
    if (query.extra_specs !== undefined) policyOf(ctx).enforce('share_types_extra_spec:index');
    if (query.host !== undefined) policyOf(ctx).enforce('share:list_by_host');
    if (query.share_server_id !== undefined) {
      policyOf(ctx).enforce('share:list_by_share_server_id');
    }
    const result = await this.queries.execute(new ListShares(query, readerOf(ctx)));
    const views = result.shares.map((d) => keptJson(view(d, ctx)));
    const body: [string, Buffer | JsonChunks][] = [['shares', jsonArrayChunks(views)]];
    if (result.nextMarker) {
      const params = new URLSearchParams({ ...query, marker: result.nextMarker });
      params.delete('offset');
      body.push(['shares_links', Buffer.from(JSON.stringify(nextPageLink(req, ctx, params)))]);
    }
    if (atLeast(ctx.microversion, '2.42') && booleanParam('with_count', query.with_count)) {
      body.push(['count', Buffer.from(JSON.stringify(await result.count()))]);
    }
    return new JsonBytes(jsonObjectChunks(body));
  }

  @Get(':id')
  @Policy('share:get', theShare)
  async show(@Req() req: Request, @Param('id') id: string) {
    const ctx = contextOf(req);
    const shown = await this.queries.execute(new ShowShare(id, readerOf(ctx)));
    return new JsonBytes(jsonObjectChunks([['share', keptJson(this.detail(shown, ctx))]]));
  }

  @Put(':id')
  @Policy('share:update', theShare)
  async update(@Req() req: Request, @Param('id') id: string, @Body() body: unknown) {
    const ctx = contextOf(req);
    const dto = await validateBody(UpdateShareDto, requireBodyKey(body, 'share'), 'share');
    const isPublic = dto.is_public === undefined ? undefined : strictBoolean(dto.is_public);
    const update = {
      ...(dto.display_name !== undefined && { name: dto.display_name }),
      ...(dto.display_description !== undefined && { description: dto.display_description }),
      ...(isPublic !== undefined && { isPublic }),
    };
    const doc = await this.commands.execute(new UpdateShare(id, update, requesterOf(ctx)));
    return { share: this.detail(doc, ctx) };
  }

  @Delete(':id')
  @HttpCode(202)
  @Policy('share:delete', theShare)
  async remove(@Req() req: Request, @Param('id') id: string) {
    const ctx = contextOf(req);
    await this.commands.execute(new DeleteShare(id, false, requesterOf(ctx)));
  }

  @Post(':id/action')
  @HttpCode(202)
  @ManilaActions()
  action(@Req() req: Request, @Res({ passthrough: true }) res: Response, @Param('id') id: string) {
    return runManilaAction(this, contextOf(req), id, res);
  }

  @ManilaAction('reset_status', { osNameBefore27: true })
  @Policy('share:reset_status', theShare)
  async resetStatus({ id, argument, ctx }: ActionCall) {
    const status = statusArgument(argument) as ShareStatus;
    await this.commands.execute(new ResetShareStatus(id, status, requesterOf(ctx)));
  }

  @ManilaAction('force_delete', { osNameBefore27: true })
  @Policy('share:force_delete', theShare)
  async forceDelete({ id, ctx }: ActionCall) {
    await this.commands.execute(new DeleteShare(id, true, requesterOf(ctx)));
  }

  @ManilaAction('allow_access', { osNameBefore27: true })
  @Policy('share:allow_access', theShare)
  async allowAccess({ id, argument, ctx, res }: ActionCall) {
    const dto = await validateBody(AllowAccessDto, argument, 'access');
    const rule = await this.commands.execute(new AllowAccess(id, dto, requesterOf(ctx)));
    const legacy = atLeast(ctx.microversion, '2.28')
      ? undefined
      : legacyAccessState(
          await this.queries.execute(new ListAccessRules(rule.share_id, readerOf(ctx))),
        );
    res.status(200);
    return { access: accessRuleView(rule, viewContextOf(ctx), legacy) };
  }

  @ManilaAction('deny_access', { osNameBefore27: true })
  @Policy('share:deny_access', theShare)
  async denyAccess({ id, argument, ctx }: ActionCall) {
    const dto = await validateBody(DenyAccessDto, argument, 'access');
    await this.commands.execute(new DenyAccess(id, dto.access_id, requesterOf(ctx)));
  }

  /** Replaced by GET /share-access-rules from 2.45. */
  @ManilaAction('access_list', { osNameBefore27: true })
  @Until('2.44')
  @Policy('share:access_get_all', theShare)
  async accessList({ id, ctx, res }: ActionCall) {
    const rules = await this.queries.execute(new ListAccessRules(id, readerOf(ctx)));
    const legacy = legacyAccessState(rules);
    res.status(200);
    return {
      access_list: rules.map((r) => accessListEntryView(r, viewContextOf(ctx), legacy)),
    };
  }

  @ManilaAction('extend', { osNameBefore27: true })
  @Policy('share:extend', theShare)
  async extend({ id, argument, ctx }: ActionCall) {
    await this.commands.execute(new ExtendShare(id, argument, requesterOf(ctx)));
  }

  @ManilaAction('shrink', { osNameBefore27: true })
  @Policy('share:shrink', theShare)
  async shrink({ id, argument, ctx }: ActionCall) {
    await this.commands.execute(new ShrinkShare(id, argument, requesterOf(ctx)));
  }

  @ManilaAction('revert')
  @Since('2.27')
  @Policy('share:revert_to_snapshot', theShare)
  async revert({ id, argument, ctx }: ActionCall) {
    await this.commands.execute(new RevertShare(id, argument, requesterOf(ctx)));
  }

  @ManilaAction('unmanage')
  @Since('2.7')
  @Policy('share:unmanage', theShare)
  async unmanage({ id, ctx }: ActionCall) {
    await this.commands.execute(new UnmanageShare(id, requesterOf(ctx)));
  }

  @ManilaAction('soft_delete')
  @Since('2.69')
  @Policy('share:soft_delete', theShare)
  async softDelete({ id, ctx }: ActionCall) {
    await this.commands.execute(new SoftDeleteShare(id, requesterOf(ctx)));
  }

  /** 202 when the share left the recycle bin; 200 when it was not in it (Manila's answer). */
  @ManilaAction('restore')
  @Since('2.69')
  @Policy('share:restore', theShare)
  async restore({ id, ctx, res }: ActionCall) {
    if (!(await this.commands.execute(new RestoreShare(id, requesterOf(ctx))))) res.status(200);
  }

  @ManilaAction('migration_start')
  @Since('2.29')
  @Policy('share:migration_start', theShare)
  migrationStart(call: ActionCall) {
    return this.migration.start(call);
  }

  @ManilaAction('migration_complete')
  @Since('2.22')
  @Policy('share:migration_complete', theShare)
  migrationComplete(call: ActionCall) {
    return this.migration.complete(call);
  }

  @ManilaAction('migration_cancel')
  @Since('2.22')
  @Policy('share:migration_cancel', theShare)
  migrationCancel(call: ActionCall) {
    return this.migration.cancel(call);
  }

  @ManilaAction('migration_get_progress')
  @Since('2.22')
  @Policy('share:migration_get_progress', theShare)
  migrationGetProgress(call: ActionCall) {
    return this.migration.progress(call);
  }

  @ManilaAction('reset_task_state')
  @Since('2.22')
  @Policy('share:reset_task_state', theShare)
  resetTaskState(call: ActionCall) {
    return this.migration.resetTaskState(call);
  }

  @Get(':id/metadata')
  @Policy('share:get_share_metadata', theShare)
  async metadata(@Req() req: Request, @Param('id') id: string) {
    const ctx = contextOf(req);
    return { metadata: (await this.queries.execute(new ShowShare(id, readerOf(ctx)))).metadata };
  }

  @Get(':id/metadata/:key')
  @Policy('share:get_share_metadata', theShare)
  async metadataItem(@Req() req: Request, @Param('id') id: string, @Param('key') key: string) {
    const ctx = contextOf(req);
    const doc = await this.queries.execute(new ShowShare(id, readerOf(ctx)));
    const value = ownValue(doc.metadata, key);
    if (value === undefined) throw metadataItemNotFound();
    return { meta: { [key]: value } };
  }

  @Post(':id/metadata')
  @HttpCode(200)
  @Policy('share:update_share_metadata', theShare)
  async mergeMetadata(@Req() req: Request, @Param('id') id: string, @Body() body: unknown) {
    return this.changeMetadata(req, id, body, false);
  }

  /**
   * Manila routes POST /shares/{id}/metadata/{key} to its update of one item: the body names
   * that key alone (`{"metadata": {key: value}}`, or `meta` as the item routes of Nova), and the
   * answer is the item.
   */
  @Post(':id/metadata/:key')
  @HttpCode(200)
  @Policy('share:update_share_metadata', theShare)
  async setMetadataItem(
    @Req() req: Request,
    @Param('id') id: string,
    @Param('key') key: string,
    @Body() body: unknown,
  ) {
    const set = metadataItemFromBody(body, key);
    const requester = requesterOf(contextOf(req));
    await this.commands.execute(new SetShareMetadata(id, set, false, requester));
    return { metadata: set };
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
    await this.commands.execute(new UnsetShareMetadata(id, key, requesterOf(contextOf(req))));
  }

  private async changeMetadata(req: Request, id: string, body: unknown, replace: boolean) {
    const set = metadataFromBody(body);
    const requester = requesterOf(contextOf(req));
    return {
      metadata: await this.commands.execute(new SetShareMetadata(id, set, replace, requester)),
    };
  }
}
