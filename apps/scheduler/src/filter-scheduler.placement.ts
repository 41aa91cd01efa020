import type { Placement, PlacementDecision, PlacementRequest } from '#hawser/process-managers';
import type { FilterScheduler } from '#hawser/scheduler';
import { schedulingRequest, type PoolStateRegistry } from '#hawser/scheduler';

/** The scheduling workflow's placement port over Manila's filter-weigher pipeline. */
export class FilterSchedulerPlacement implements Placement {
  constructor(
    private readonly registry: PoolStateRegistry,
    private readonly scheduler: FilterScheduler,
  ) {}

  place(request: PlacementRequest): PlacementDecision {
    const availabilityZones = (request.shareType.extraSpecs.availability_zones ?? '')
      .split(',')
      .map((zone) => zone.trim())
      .filter(Boolean);
    const result = this.scheduler.schedule(
      schedulingRequest({
        shareId: request.instanceId,
        size: request.size,
        shareProto: request.shareProto,
        shareType: request.shareType,
        availabilityZone: request.availabilityZone,
        availabilityZones,
        snapshotId: request.snapshotId,
      }),
    );
    if (result.outcome === 'placed') {
      const pool = this.registry.poolIndex(result.host);
      const zone = pool === undefined ? null : this.registry.availabilityZoneOf(pool);
      return { placed: true, host: result.host, availabilityZone: zone ?? '' };
    }
    return {
      placed: false,
      message: result.message,
      detail: {
        lastFilter: result.lastFilter,
        filters: result.filters,
        userMessage: result.userMessage,
        ...(result.reason && { reason: result.reason }),
      },
    };
  }

  consume(host: string, instanceId: string, sizeGiB: number, placedAt: number): void {
    this.registry.consume(host, instanceId, sizeGiB, placedAt);
  }
}
