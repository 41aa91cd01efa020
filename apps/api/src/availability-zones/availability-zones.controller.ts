import { Controller, Get, Inject, Req } from '@nestjs/common';
import type { Request } from 'express';
import { availabilityZoneView } from '#hawser/api-contracts';
import { AVAILABILITY_ZONES, type AvailabilityZoneDocument } from '#hawser/projections';
import type { DocumentStore } from '#hawser/read-models';
import { DOCUMENT_STORE } from '#hawser/platform';
import { notFoundError } from '../http/manila-error.js';
import { atLeast, contextOf } from '../http/request-context.js';
import { Policy } from '../policy/route-policy.decorators.js';

/** GET /availability-zones (2.7+) and /os-availability-zone (up to 2.6), reference 1.8 and 3.9. */
@Controller('v2')
export class AvailabilityZonesController {
  constructor(@Inject(DOCUMENT_STORE) private readonly documents: DocumentStore) {}

  @Get('availability-zones')
  @Policy('availability_zone:index')
  async list(@Req() req: Request) {
    const ctx = contextOf(req);
    if (!atLeast(ctx.microversion, '2.7')) throw notFoundError('The resource could not be found.');
    return this.zones();
  }

  @Get('os-availability-zone')
  @Policy('availability_zone:index')
  async legacyList(@Req() req: Request) {
    const ctx = contextOf(req);
    if (atLeast(ctx.microversion, '2.7')) throw notFoundError('The resource could not be found.');
    return this.zones();
  }

  private async zones() {
    const zones = await this.documents.find<AvailabilityZoneDocument>(
      AVAILABILITY_ZONES,
      {},
      {
        sort: [['name', 1]],
      },
    );
    return { availability_zones: zones.map(availabilityZoneView) };
  }
}
