import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Req } from '@nestjs/common';
import type { Request } from 'express';
import { ownValue } from '#hawser/domain';
import type { SnapshotDocument } from '#hawser/projections';
import { notFoundError } from '../http/manila-error.js';
import { metadataFromBody } from '../http/metadata-body.js';
import { requireAuth } from '../http/policy.js';
import { contextOf } from '../http/request-context.js';
import { fromParam, snapshot } from '../policy/policy-targets.js';
import { Policy, Since } from '../policy/route-policy.decorators.js';
import { SnapshotsService } from './snapshots.service.js';

const theSnapshot = snapshot(fromParam('id'));
const metadataOf = (doc: SnapshotDocument): Record<string, string> => doc.metadata ?? {};

/** Snapshot metadata (2.73+), the same endpoints as a share's (reference 3.4.4, 3.6). */
@Controller('v2/snapshots')
@Since('2.73')
export class SnapshotMetadataController {
  constructor(private readonly snapshots: SnapshotsService) {}

  @Get(':id/metadata')
  @Policy('share_snapshot:get_metadata', theSnapshot)
  async show(@Req() req: Request, @Param('id') id: string) {
    return { metadata: metadataOf(await this.snapshot(req, id)) };
  }

  @Get(':id/metadata/:key')
  @Policy('share_snapshot:get_metadata', theSnapshot)
  async item(@Req() req: Request, @Param('id') id: string, @Param('key') key: string) {
    const value = ownValue(metadataOf(await this.snapshot(req, id)), key);
    if (value === undefined) throw notFoundError('Metadata item was not found');
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
    const doc = await this.snapshot(req, id);
    if (!Object.hasOwn(metadataOf(doc), key)) throw notFoundError('Metadata item was not found');
    await this.run(req, doc, {}, [key]);
  }

  private async change(req: Request, id: string, body: unknown, replace: boolean) {
    const doc = await this.snapshot(req, id);
    const set = metadataFromBody(body);
    const unset = replace ? Object.keys(metadataOf(doc)).filter((k) => !Object.hasOwn(set, k)) : [];
    await this.run(req, doc, set, unset);
    return { metadata: metadataOf(await this.snapshot(req, id)) };
  }

  private async run(
    req: Request,
    doc: SnapshotDocument,
    set: Record<string, string>,
    unset: string[],
  ): Promise<void> {
    await this.snapshots.run(doc.share_id, contextOf(req), {
      type: 'ChangeSnapshotMetadata',
      snapshotId: doc.id,
      set,
      unset,
      now: new Date().toISOString(),
    });
  }

  /** The caller's snapshot. */
  private async snapshot(req: Request, id: string): Promise<SnapshotDocument> {
    return this.snapshots.find(id, requireAuth(contextOf(req)));
  }
}
