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
  CreateSnapshotDto,
  snapshotAccessView,
  snapshotDetailView,
  snapshotExportLocationsView,
  snapshotExportLocationShown,
  snapshotSummaryView,
  UpdateSnapshotDto,
} from '#hawser/api-contracts';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  AllowSnapshotAccess,
  CreateSnapshot,
  DeleteSnapshot,
  DenySnapshotAccess,
  ListSnapshotAccess,
  ListSnapshotExportLocations,
  ListSnapshots,
  ResetSnapshotStatus,
  ShowSnapshot,
  UnmanageSnapshot,
  UpdateSnapshot,
} from '#hawser/application';
import type { SnapshotStatus } from '#hawser/domain';
import type { SnapshotDocument } from '#hawser/projections';
import { statusArgument } from '../http/action-body.js';
import { contextOf, type RequestContext } from '../http/request-context.js';
import { readerOf, requesterOf } from '../http/requester.js';
import { requireBodyKey, validateBody } from '../http/validate-body.js';
import { viewContextOf } from '../http/view-context.js';
import { nextPageLink } from '../http/next-page-link.js';
import { runManilaAction, type ActionCall } from '../policy/manila-actions.js';
import { fromBody, fromParam, share, snapshot } from '../policy/policy-targets.js';
import { ManilaAction, ManilaActions, Policy, Since } from '../policy/route-policy.decorators.js';

const theSnapshot = snapshot(fromParam('id'));

/** Manila's snapshots API (reference 3.6): create, list, show, update, delete, actions. */
@Controller('v2/snapshots')
export class SnapshotsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  private detail(doc: SnapshotDocument, ctx: RequestContext) {
    return snapshotDetailView(doc, viewContextOf(ctx));
  }

  @Post()
  @HttpCode(202)
  @Policy('share:create_snapshot', share(fromBody('snapshot', 'share_id')))
  async create(@Req() req: Request, @Body() body: unknown) {
    const ctx = contextOf(req);
    const requester = requesterOf(ctx);
    const dto = await validateBody(CreateSnapshotDto, requireBodyKey(body, 'snapshot'), 'snapshot');
    const doc = await this.commands.execute(new CreateSnapshot(dto, requester));
    return { snapshot: this.detail(doc, ctx) };
  }

  @Get()
  @Policy('share_snapshot:get_all_snapshots')
  async list(@Req() req: Request, @Query() query: Record<string, string>) {
    return this.page(req, query, (d, ctx) => snapshotSummaryView(d, viewContextOf(ctx)));
  }

  @Get('detail')
  @Policy('share_snapshot:get_all_snapshots')
  async listDetail(@Req() req: Request, @Query() query: Record<string, string>) {
    return this.page(req, query, (d, ctx) => this.detail(d, ctx));
  }

  /** A page of snapshots; `share_snapshots_links` points on when the page is full. */
  private async page(
    req: Request,
    query: Record<string, string>,
    view: (doc: SnapshotDocument, ctx: RequestContext) => unknown,
  ) {
    const ctx = contextOf(req);
    const { snapshots, more } = await this.queries.execute(new ListSnapshots(query, readerOf(ctx)));
    const body: Record<string, unknown> = { snapshots: snapshots.map((d) => view(d, ctx)) };
    if (more) {
      const offset = Number(query.offset ?? 0) + snapshots.length;
      const params = new URLSearchParams({ ...query, offset: String(offset) });
      body.share_snapshots_links = nextPageLink(req, ctx, params);
    }
    return body;
  }

  @Get(':id')
  @Policy('share_snapshot:get_snapshot', theSnapshot)
  async show(@Req() req: Request, @Param('id') id: string) {
    const ctx = contextOf(req);
    const doc = await this.queries.execute(new ShowSnapshot(id, readerOf(ctx)));
    return { snapshot: this.detail(doc, ctx) };
  }

  /**
   * Export locations of a mountable snapshot (2.32+): those its back end reported for each of
   * its instances (none for a snapshot of a type without `mount_snapshot_support`).
   */
  @Get(':id/export-locations')
  @Since('2.32')
  @Policy('share_snapshot_export_location:index', theSnapshot)
  async exportLocations(@Req() req: Request, @Param('id') id: string) {
    const ctx = contextOf(req);
    const locations = await this.queries.execute(
      new ListSnapshotExportLocations(id, readerOf(ctx)),
    );
    return snapshotExportLocationsView(locations, viewContextOf(ctx));
  }

  @Get(':id/export-locations/:locationId')
  @Since('2.32')
  @Policy('share_snapshot_export_location:show', theSnapshot)
  async exportLocation(
    @Req() req: Request,
    @Param('id') id: string,
    @Param('locationId') locationId: string,
  ) {
    const ctx = contextOf(req);
    const locations = await this.queries.execute(
      new ListSnapshotExportLocations(id, readerOf(ctx)),
    );
    return snapshotExportLocationShown(locations, locationId, viewContextOf(ctx));
  }

  /** The snapshot's read-only access rules (2.32+); 400 unless its share mounts snapshots. */
  @Get(':id/access-list')
  @Since('2.32')
  @Policy('share_snapshot:access_list', theSnapshot)
  async accessList(@Req() req: Request, @Param('id') id: string) {
    const rules = await this.queries.execute(new ListSnapshotAccess(id, readerOf(contextOf(req))));
    return { snapshot_access_list: rules.map(snapshotAccessView) };
  }

  @Put(':id')
  @Policy('share:snapshot_update', theSnapshot)
  async update(@Req() req: Request, @Param('id') id: string, @Body() body: unknown) {
    const ctx = contextOf(req);
    const requester = requesterOf(ctx);
    const dto = await validateBody(UpdateSnapshotDto, requireBodyKey(body, 'snapshot'), 'snapshot');
    const name = dto.display_name !== undefined ? dto.display_name : dto.name;
    const description =
      dto.display_description !== undefined ? dto.display_description : dto.description;
    const update = {
      ...(name !== undefined && { name }),
      ...(description !== undefined && { description }),
    };
    const doc = await this.commands.execute(new UpdateSnapshot(id, update, requester));
    return { snapshot: this.detail(doc, ctx) };
  }

  @Delete(':id')
  @HttpCode(202)
  @Policy('share:delete_snapshot', theSnapshot)
  async remove(@Req() req: Request, @Param('id') id: string) {
    const ctx = contextOf(req);
    await this.commands.execute(new DeleteSnapshot(id, false, requesterOf(ctx)));
  }

  @Post(':id/action')
  @HttpCode(202)
  @ManilaActions()
  action(@Req() req: Request, @Res({ passthrough: true }) res: Response, @Param('id') id: string) {
    return runManilaAction(this, contextOf(req), id, res);
  }

  @ManilaAction('reset_status', { osNameBefore27: true })
  @Policy('share_snapshot:reset_status', theSnapshot)
  async resetStatus({ id, argument, ctx }: ActionCall) {
    const status = statusArgument(argument) as SnapshotStatus;
    await this.commands.execute(new ResetSnapshotStatus(id, status, requesterOf(ctx)));
  }

  @ManilaAction('force_delete', { osNameBefore27: true })
  @Policy('share_snapshot:force_delete', theSnapshot)
  async forceDelete({ id, ctx }: ActionCall) {
    await this.commands.execute(new DeleteSnapshot(id, true, requesterOf(ctx)));
  }

  /** 2.32+: a read-only rule for the snapshot, `queued_to_apply` (202). */
  @ManilaAction('allow_access')
  @Since('2.32')
  @Policy('share_snapshot:allow_access', theSnapshot)
  async allowAccess({ id, argument, ctx }: ActionCall) {
    const rule = await this.commands.execute(
      new AllowSnapshotAccess(id, argument, requesterOf(ctx)),
    );
    return { snapshot_access: snapshotAccessView(rule) };
  }

  @ManilaAction('deny_access')
  @Since('2.32')
  @Policy('share_snapshot:deny_access', theSnapshot)
  async denyAccess({ id, argument, ctx }: ActionCall) {
    await this.commands.execute(new DenySnapshotAccess(id, argument, requesterOf(ctx)));
  }

  /** 2.12+ (admin): Hawser lets the snapshot go, its data kept on the back end (202). */
  @ManilaAction('unmanage')
  @Since('2.12')
  @Policy('share_snapshot:unmanage_snapshot', theSnapshot)
  async unmanage({ id, ctx }: ActionCall) {
    await this.commands.execute(new UnmanageSnapshot(id, requesterOf(ctx)));
  }
}
