import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Param,
  Post,
  Put,
  Query,
  Req,
} from '@nestjs/common';
import type { Request } from 'express';
import {
  CreateSnapshotDto,
  snapshotDetailView,
  snapshotSummaryView,
  UpdateSnapshotDto,
} from '#hawser/api-contracts';
import type { SnapshotStatus } from '#hawser/domain';
import type { SnapshotDocument } from '#hawser/projections';
import type { DocumentStore } from '#hawser/read-models';
import { DOCUMENT_STORE } from '#hawser/platform';
import { actionOf, statusArgument } from '../http/action-body.js';
import { badRequest, notFoundError } from '../http/manila-error.js';
import { requireAdmin, requireAuth } from '../http/policy.js';
import { atLeast, contextOf, type RequestContext } from '../http/request-context.js';
import { requireBodyKey, validateBody } from '../http/validate-body.js';
import { viewContextOf } from '../http/view-context.js';
import { nextPageLink } from '../http/next-page-link.js';
import { listSnapshots } from './snapshot-list.query.js';
import { SnapshotsService } from './snapshots.service.js';

const now = () => new Date().toISOString();

/** Manila's snapshots API (reference 3.6): create, list, show, update, delete, actions. */
@Controller('v2/snapshots')
export class SnapshotsController {
  constructor(
    private readonly snapshots: SnapshotsService,
    @Inject(DOCUMENT_STORE) private readonly documents: DocumentStore,
  ) {}

  private detail(doc: SnapshotDocument, ctx: RequestContext) {
    return snapshotDetailView(doc, viewContextOf(ctx));
  }

  @Post()
  @HttpCode(202)
  async create(@Req() req: Request, @Body() body: unknown) {
    const ctx = contextOf(req);
    const auth = requireAuth(ctx);
    const dto = await validateBody(CreateSnapshotDto, requireBodyKey(body, 'snapshot'), 'snapshot');
    return { snapshot: this.detail(await this.snapshots.create(dto, ctx, auth), ctx) };
  }

  @Get()
  async list(@Req() req: Request, @Query() query: Record<string, string>) {
    return this.page(req, query, (d, ctx) => snapshotSummaryView(d, viewContextOf(ctx)));
  }

  @Get('detail')
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
    const { snapshots, more } = await listSnapshots(
      this.documents,
      requireAuth(ctx),
      ctx.microversion,
      query,
    );
    const body: Record<string, unknown> = { snapshots: snapshots.map((d) => view(d, ctx)) };
    if (more) {
      const offset = Number(query.offset ?? 0) + snapshots.length;
      const params = new URLSearchParams({ ...query, offset: String(offset) });
      body.share_snapshots_links = nextPageLink(req, ctx, params);
    }
    return body;
  }

  @Get(':id')
  async show(@Req() req: Request, @Param('id') id: string) {
    const ctx = contextOf(req);
    return { snapshot: this.detail(await this.snapshots.find(id, requireAuth(ctx)), ctx) };
  }

  /**
   * Export locations of a mountable snapshot (2.32+). Mounting snapshots is not built, so a
   * snapshot has none: the list is empty, as Manila's is for snapshots of other types.
   */
  @Get(':id/export-locations')
  async exportLocations(@Req() req: Request, @Param('id') id: string) {
    const ctx = contextOf(req);
    if (!atLeast(ctx.microversion, '2.32')) throw notFoundError('The resource could not be found.');
    await this.snapshots.find(id, requireAuth(ctx));
    return { share_snapshot_export_locations: [] };
  }

  @Put(':id')
  async update(@Req() req: Request, @Param('id') id: string, @Body() body: unknown) {
    const ctx = contextOf(req);
    const auth = requireAuth(ctx);
    const dto = await validateBody(UpdateSnapshotDto, requireBodyKey(body, 'snapshot'), 'snapshot');
    const doc = await this.snapshots.find(id, auth);
    const name = dto.display_name !== undefined ? dto.display_name : dto.name;
    const description =
      dto.display_description !== undefined ? dto.display_description : dto.description;
    await this.snapshots.run(doc.share_id, ctx, {
      type: 'UpdateSnapshot',
      snapshotId: doc.id,
      ...(name !== undefined && { name }),
      ...(description !== undefined && { description }),
      now: now(),
    });
    return { snapshot: this.detail(await this.snapshots.find(doc.id, auth), ctx) };
  }

  @Delete(':id')
  @HttpCode(202)
  async remove(@Req() req: Request, @Param('id') id: string) {
    const ctx = contextOf(req);
    const doc = await this.snapshots.find(id, requireAuth(ctx));
    await this.snapshots.run(doc.share_id, ctx, {
      type: 'DeleteSnapshot',
      snapshotId: doc.id,
      force: false,
      now: now(),
    });
  }

  @Post(':id/action')
  @HttpCode(202)
  async action(@Req() req: Request, @Param('id') id: string, @Body() body: unknown) {
    const ctx = contextOf(req);
    const auth = requireAuth(ctx);
    const { name, action, argument } = actionOf(body, ctx);
    switch (action) {
      case 'reset_status': {
        requireAdmin(ctx, 'share_snapshot:reset_status');
        const status = statusArgument(argument);
        const doc = await this.snapshots.find(id, auth);
        await this.snapshots.run(doc.share_id, ctx, {
          type: 'ResetSnapshotStatus',
          snapshotId: doc.id,
          status: status as SnapshotStatus,
          now: now(),
        });
        return;
      }
      case 'force_delete': {
        requireAdmin(ctx, 'share_snapshot:force_delete');
        const doc = await this.snapshots.find(id, auth);
        await this.snapshots.run(doc.share_id, ctx, {
          type: 'DeleteSnapshot',
          snapshotId: doc.id,
          force: true,
          now: now(),
        });
        return;
      }
      default:
        throw badRequest(`There is no such action: ${name}`);
    }
  }
}
