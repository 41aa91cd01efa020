import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Request } from 'express';
import { snapshotDetailView } from '#hawser/api-contracts';
import { ManageSnapshot } from '#hawser/application';
import { contextOf } from '../http/request-context.js';
import { requesterOf } from '../http/requester.js';
import { viewContextOf } from '../http/view-context.js';
import { Policy, Since } from '../policy/route-policy.decorators.js';

/**
 * POST /snapshots/manage (2.12+, admin): adopt a snapshot that exists on the back end of a
 * share without share servers; the answer (202) is the new snapshot, `manage_starting`.
 */
@Controller('v2/snapshots')
export class SnapshotManageController {
  constructor(private readonly commands: CommandBus) {}

  @Post('manage')
  @HttpCode(202)
  @Since('2.12')
  @Policy('share_snapshot:manage_snapshot')
  async manage(@Req() req: Request, @Body() body: unknown) {
    const ctx = contextOf(req);
    const doc = await this.commands.execute(new ManageSnapshot(body, requesterOf(ctx)));
    return { snapshot: snapshotDetailView(doc, viewContextOf(ctx)) };
  }
}
