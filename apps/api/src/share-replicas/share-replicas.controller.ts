import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { Request, Response } from 'express';
import {
  CreateReplica,
  DeleteReplica,
  limitedWindow,
  ListReplicas,
  PromoteReplica,
  ResetReplicaState,
  ResetReplicaStatus,
  ResyncReplica,
  ShowReplica,
} from '#hawser/application';
import {
  CreateShareReplicaDto,
  replicaExportLocationView,
  shareReplicaDetailView,
  shareReplicaSummaryView,
  visibleExportLocations,
} from '#hawser/api-contracts';
import type { ShareStatus } from '#hawser/domain';
import type { ShareInstanceDocument } from '#hawser/projections';
import { statusArgument } from '../http/action-body.js';
import { notFoundError } from '../http/manila-error.js';
import { jsonArrayChunks, JsonBytes, jsonObjectChunks, keptJson } from '../http/json-answer.js';
import { keptViews } from '../http/kept-views.js';
import { contextOf, type RequestContext } from '../http/request-context.js';
import { readerOf, requesterOf } from '../http/requester.js';
import { requireBodyKey, validateBody } from '../http/validate-body.js';
import { viewContextOf } from '../http/view-context.js';
import { runManilaAction, type ActionCall } from '../policy/manila-actions.js';
import { fromBody, fromParam, replica, share } from '../policy/policy-targets.js';
import { policyRefusal } from '../policy/request-policy.js';
import {
  Experimental,
  ManilaAction,
  ManilaActions,
  Policy,
  Since,
} from '../policy/route-policy.decorators.js';
const theReplica = replica(fromParam('id'));

/**
 * A replica's documents are kept frozen per revision of its share (`ReplicaDocuments`): their
 * views are kept too, and so is each view's JSON, which a listing splices.
 */
const replicaDetail = keptViews(shareReplicaDetailView);
const replicaSummary = keptViews(shareReplicaSummaryView);

/**
 * Manila's share replicas API (reference 1.3, 3.7 and 5), over the share-instances read model.
 * 2.11 to 2.55 need the experimental header; from 2.56 the API is stable (reference 3.2).
 */
@Controller('v2/share-replicas')
@Since('2.11')
@Experimental('2.55')
export class ShareReplicasController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post()
  @HttpCode(202)
  @Policy('share_replica:create', share(fromBody('share_replica', 'share_id')))
  async create(@Req() req: Request, @Body() body: unknown) {
    const ctx = contextOf(req);
    const requester = requesterOf(ctx);
    const dto = await validateBody(
      CreateShareReplicaDto,
      requireBodyKey(body, 'share_replica'),
      'share_replica',
    );
    const doc = await this.commands.execute(new CreateReplica(dto, requester));
    // Manila answers with the row as inserted, before replica_state is written (seed 001).
    return {
      share_replica: { ...shareReplicaDetailView(doc, viewContextOf(ctx)), replica_state: null },
    };
  }

  @Get()
  @Policy('share_replica:get_all')
  async list(@Req() req: Request, @Query() query: Record<string, string>) {
    return this.page(req, query, (doc, ctx) => replicaSummary(doc, viewContextOf(ctx)));
  }

  @Get('detail')
  @Policy('share_replica:get_all')
  async listDetail(@Req() req: Request, @Query() query: Record<string, string>) {
    return this.page(req, query, (doc, ctx) => replicaDetail(doc, viewContextOf(ctx)));
  }

  private async page(
    req: Request,
    query: Record<string, string>,
    view: (doc: ShareInstanceDocument, ctx: RequestContext) => object,
  ) {
    const ctx = contextOf(req);
    const docs = await this.queries.execute(
      new ListReplicas(query.share_id, readerOf(ctx), limitedWindow(query)),
    );
    const views = docs.map((doc) => keptJson(view(doc, ctx)));
    return new JsonBytes(jsonObjectChunks([['share_replicas', jsonArrayChunks(views)]]));
  }

  @Get(':id')
  @Policy('share_replica:show', theReplica)
  async show(@Req() req: Request, @Param('id') id: string) {
    const ctx = contextOf(req);
    const doc = await this.queries.execute(new ShowReplica(id, readerOf(ctx)));
    return { share_replica: shareReplicaDetailView(doc, viewContextOf(ctx)) };
  }

  @Delete(':id')
  @HttpCode(202)
  @Policy('share_replica:delete', theReplica)
  async remove(@Req() req: Request, @Param('id') id: string) {
    await this.commands.execute(new DeleteReplica(id, false, requesterOf(contextOf(req))));
  }

  @Post(':id/action')
  @HttpCode(202)
  @ManilaActions()
  action(@Req() req: Request, @Res({ passthrough: true }) res: Response, @Param('id') id: string) {
    const ctx = contextOf(req);
    return runManilaAction(this, ctx, id, res);
  }

  @ManilaAction('promote')
  @Policy('share_replica:promote', theReplica)
  async promote({ id, ctx, res }: ActionCall) {
    const promoting = await this.commands.execute(new PromoteReplica(id, requesterOf(ctx)));
    // The active replica (every writable one) is promoted already: 200 and no body.
    if (!promoting) {
      res.status(200);
      return;
    }
    return { share_replica: shareReplicaDetailView(promoting, viewContextOf(ctx)) };
  }

  @ManilaAction('resync')
  @Policy('share_replica:resync', theReplica)
  async resync({ id, ctx, res }: ActionCall) {
    const requested = await this.commands.execute(new ResyncReplica(id, requesterOf(ctx)));
    // The active replica needs no resync: 200.
    if (!requested) res.status(200);
  }

  @ManilaAction('reset_status')
  @Policy('share_replica:reset_status', theReplica)
  async resetStatus({ id, argument, ctx }: ActionCall) {
    const status = statusArgument(argument) as ShareStatus;
    await this.commands.execute(new ResetReplicaStatus(id, status, requesterOf(ctx)));
  }

  @ManilaAction('reset_replica_state')
  @Policy('share_replica:reset_replica_state', theReplica)
  async resetReplicaState({ id, argument, ctx }: ActionCall) {
    const state = (argument as { replica_state?: unknown } | null)?.replica_state;
    await this.commands.execute(new ResetReplicaState(id, state, requesterOf(ctx)));
  }

  @ManilaAction('force_delete')
  @Policy('share_replica:force_delete', theReplica)
  async forceDelete({ id, ctx }: ActionCall) {
    await this.commands.execute(new DeleteReplica(id, true, requesterOf(ctx)));
  }

  @Get(':id/export-locations')
  @Since('2.47')
  @Policy('share_replica_export_location:index', theReplica)
  async exportLocations(@Req() req: Request, @Param('id') id: string) {
    const ctx = contextOf(req);
    const doc = await this.queries.execute(new ShowReplica(id, readerOf(ctx)));
    const view = viewContextOf(ctx);
    return {
      export_locations: visibleExportLocations(doc.export_locations, view).map((l) =>
        replicaExportLocationView(l, doc, view, false),
      ),
    };
  }

  @Get(':id/export-locations/:locationId')
  @Since('2.47')
  @Policy('share_replica_export_location:show', theReplica)
  async exportLocation(
    @Req() req: Request,
    @Param('id') id: string,
    @Param('locationId') locationId: string,
  ) {
    const ctx = contextOf(req);
    const doc = await this.queries.execute(new ShowReplica(id, readerOf(ctx)));
    const view = viewContextOf(ctx);
    const location = doc.export_locations.find((l) => l.id === locationId);
    if (!location) throw notFoundError(`Export location ${locationId} could not be found.`);
    if (location.is_admin_only && !view.isAdmin) {
      throw policyRefusal('share_replica_export_location:show');
    }
    return { export_location: replicaExportLocationView(location, doc, view, true) };
  }
}
