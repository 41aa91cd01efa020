import { Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { Request, Response } from 'express';
import {
  snapshotExportLocationsView,
  snapshotExportLocationShown,
  snapshotInstanceDetailView,
  snapshotInstanceSummaryView,
} from '#hawser/api-contracts';
import {
  ListSnapshotInstances,
  ResetSnapshotInstanceStatus,
  ShowSnapshotInstance,
} from '#hawser/application';
import type { SnapshotStatus } from '#hawser/domain';
import { statusArgument } from '../http/action-body.js';
import { viewContextOf } from '../http/view-context.js';
import { contextOf } from '../http/request-context.js';
import { readerOf, requesterOf } from '../http/requester.js';
import { runManilaAction, type ActionCall } from '../policy/manila-actions.js';
import { ManilaAction, ManilaActions, Policy, Since } from '../policy/route-policy.decorators.js';

/**
 * Manila's snapshot instances (2.19+, admin only): one per share instance a snapshot was taken
 * on, listed (of one snapshot with `?snapshot_id=`), shown, and reset by an admin; a mountable
 * snapshot's instance shows the export locations its back end reported (2.32+).
 */
@Controller('v2/snapshot-instances')
@Since('2.19')
export class SnapshotInstancesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @Policy('share_snapshot_instance:index')
  async list(@Req() req: Request, @Query('snapshot_id') snapshotId?: string) {
    const docs = await this.queries.execute(
      new ListSnapshotInstances(snapshotId, readerOf(contextOf(req))),
    );
    return { snapshot_instances: docs.map(snapshotInstanceSummaryView) };
  }

  @Get('detail')
  @Policy('share_snapshot_instance:detail')
  async listDetail(@Req() req: Request, @Query('snapshot_id') snapshotId?: string) {
    const docs = await this.queries.execute(
      new ListSnapshotInstances(snapshotId, readerOf(contextOf(req))),
    );
    return { snapshot_instances: docs.map(snapshotInstanceDetailView) };
  }

  @Get(':id')
  @Policy('share_snapshot_instance:show')
  async show(@Req() req: Request, @Param('id') id: string) {
    const doc = await this.queries.execute(new ShowSnapshotInstance(id, readerOf(contextOf(req))));
    return { snapshot_instance: snapshotInstanceDetailView(doc) };
  }

  @Get(':id/export-locations')
  @Since('2.32')
  @Policy('share_snapshot_instance_export_location:index')
  async exportLocations(@Req() req: Request, @Param('id') id: string) {
    const ctx = contextOf(req);
    const instance = await this.queries.execute(new ShowSnapshotInstance(id, readerOf(ctx)));
    return snapshotExportLocationsView(instance.export_locations, viewContextOf(ctx));
  }

  @Get(':id/export-locations/:locationId')
  @Since('2.32')
  @Policy('share_snapshot_instance_export_location:show')
  async exportLocation(
    @Req() req: Request,
    @Param('id') id: string,
    @Param('locationId') locationId: string,
  ) {
    const ctx = contextOf(req);
    const instance = await this.queries.execute(new ShowSnapshotInstance(id, readerOf(ctx)));
    return snapshotExportLocationShown(instance.export_locations, locationId, viewContextOf(ctx));
  }

  @Post(':id/action')
  @HttpCode(202)
  @ManilaActions()
  action(@Req() req: Request, @Res({ passthrough: true }) res: Response, @Param('id') id: string) {
    return runManilaAction(this, contextOf(req), id, res);
  }

  @ManilaAction('reset_status')
  @Policy('share_snapshot_instance:reset_status')
  async resetStatus({ id, argument, ctx }: ActionCall) {
    const status = statusArgument(argument) as SnapshotStatus;
    await this.commands.execute(new ResetSnapshotInstanceStatus(id, status, requesterOf(ctx)));
  }
}
