import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Req } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { Request } from 'express';
import { SetSnapshotMetadata, ShowSnapshot, UnsetSnapshotMetadata } from '#hawser/application';
import { ownValue } from '#hawser/domain';
import type { SnapshotDocument } from '#hawser/projections';
import { metadataItemNotFound } from '../http/manila-error.js';
import { metadataFromBody } from '../http/metadata-body.js';
import { contextOf } from '../http/request-context.js';
import { readerOf, requesterOf } from '../http/requester.js';
import { fromParam, snapshot } from '../policy/policy-targets.js';
import { Policy, Since } from '../policy/route-policy.decorators.js';

const theSnapshot = snapshot(fromParam('id'));
const metadataOf = (doc: SnapshotDocument): Record<string, string> => doc.metadata ?? {};

/** Snapshot metadata (2.73+), the same endpoints as a share's (reference 3.4.4, 3.6). */
@Controller('v2/snapshots')
@Since('2.73')
export class SnapshotMetadataController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get(':id/metadata')
  @Policy('share_snapshot:get_metadata', theSnapshot)
  async show(@Req() req: Request, @Param('id') id: string) {
    return { metadata: metadataOf(await this.snapshot(req, id)) };
  }

  @Get(':id/metadata/:key')
  @Policy('share_snapshot:get_metadata', theSnapshot)
  async item(@Req() req: Request, @Param('id') id: string, @Param('key') key: string) {
    const value = ownValue(metadataOf(await this.snapshot(req, id)), key);
    if (value === undefined) throw metadataItemNotFound();
    return { meta: { [key]: value } };
  }

  @Post(':id/metadata')
  @HttpCode(200)
  @Policy('share_snapshot:update_metadata', theSnapshot)
  async merge(@Req() req: Request, @Param('id') id: string, @Body() body: unknown) {
    return this.change(req, id, body, false);
  }

  @Put(':id/metadata')
  @Policy('share_snapshot:update_metadata', theSnapshot)
  async replace(@Req() req: Request, @Param('id') id: string, @Body() body: unknown) {
    return this.change(req, id, body, true);
  }

  @Delete(':id/metadata/:key')
  @Policy('share_snapshot:delete_metadata', theSnapshot)
  async remove(@Req() req: Request, @Param('id') id: string, @Param('key') key: string) {
    await this.commands.execute(new UnsetSnapshotMetadata(id, key, requesterOf(contextOf(req))));
  }

  private async change(req: Request, id: string, body: unknown, replace: boolean) {
    // The snapshot is looked up before the body is read: an unknown one is a 404 whatever the body.
    const doc = await this.snapshot(req, id);
    const set = metadataFromBody(body);
    const requester = requesterOf(contextOf(req));
    return {
      metadata: await this.commands.execute(
        new SetSnapshotMetadata(doc.id, set, replace, requester),
      ),
    };
  }

  /** The caller's snapshot. */
  private snapshot(req: Request, id: string): Promise<SnapshotDocument> {
    return this.queries.execute(new ShowSnapshot(id, readerOf(contextOf(req))));
  }
}
