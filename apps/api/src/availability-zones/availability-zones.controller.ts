import { Controller, Get, Inject } from '@nestjs/common';
import { availabilityZoneView } from '#hawser/api-contracts';
import { AVAILABILITY_ZONES, type AvailabilityZoneDocument } from '#hawser/projections';
import type { DocumentStore } from '#hawser/read-models';
import { DOCUMENT_STORE } from '#hawser/platform';
import { Policy, Since, Until } from '../policy/route-policy.decorators.js';

/** GET /availability-zones (2.7+) and /os-availability-zone (up to 2.6), reference 1.8 and 3.9. */
@Controller('v2')
export class AvailabilityZonesController {
  constructor(@Inject(DOCUMENT_STORE) private readonly documents: DocumentStore) {}

  @Get('availability-zones')
  @Since('2.7')
  @Policy('availability_zone:index')
  async list() {
    return this.zones();
  }

  @Get('os-availability-zone')
  @Until('2.6')
  @Policy('availability_zone:index')
  async legacyList() {
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
