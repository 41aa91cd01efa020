import type { PreparedFilter, SchedulerFilter } from './scheduler-filter.js';

/**
 * AvailabilityZoneFilter: the back end's AZ must be the requested one (if any) and one of the
 * share type's `availability_zones` (if listed); with a multiple-subnet request map, a pool
 * without share_server_multiple_subnet_support fails where the map asks for it.
 */
export const availabilityZoneFilter: SchedulerFilter = {
  name: 'AvailabilityZoneFilter',
  prepare({ request, registry, columns }): PreparedFilter | null {
    const requested = request.availabilityZone;
    const allowed =
      request.availabilityZones.length > 0 ? new Set(request.availabilityZones) : null;
    const subnetMap = request.multipleSubnetSupportByZone;
    const needsSubnetCheck = Object.keys(subnetMap).length > 0;
    if (requested === null && allowed === null && !needsSubnetCheck) return null;
    const zoneOf = (pool: number): string | null => registry.availabilityZoneOf(pool);
    return {
      keep(candidates, count) {
        let kept = 0;
        for (let i = 0; i < count; i++) {
          const pool = candidates[i] as number;
          const zone = zoneOf(pool);
          if (requested !== null && zone !== requested) continue;
          if (allowed !== null && (zone === null || !allowed.has(zone))) continue;
          if (
            needsSubnetCheck &&
            !columns.multipleSubnetSupport[pool] &&
            zone !== null &&
            subnetMap[zone]
          )
            continue;
          candidates[kept++] = pool;
        }
        return kept;
      },
      staticKey: `${requested ?? ''}|${request.availabilityZones.join(',')}|${
        needsSubnetCheck ? JSON.stringify(subnetMap) : ''
      }`,
      seed: () =>
        requested !== null && allowed === null && !needsSubnetCheck
          ? registry.livePoolsInZone(requested)
          : undefined,
    };
  },
};
