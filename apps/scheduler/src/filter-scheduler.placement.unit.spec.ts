import {
  FilterScheduler,
  PoolStateRegistry,
  schedulingRequest,
  type ReportedPoolCapabilities,
  type SchedulerFilter,
} from '#hawser/scheduler';
import { FilterSchedulerPlacement } from './filter-scheduler.placement.js';

/** A static filter (one set per type and protocol) that keeps every pool and records each build. */
const recording = () => {
  const builds: string[] = [];
  const filter: SchedulerFilter = {
    name: 'RecordingFilter',
    prepare: ({ request }) => ({
      keep: (_, count) => {
        builds.push(`${request.shareProto}/${request.availabilityZone ?? '-'}`);
        return count;
      },
      staticKey: `${request.shareType.id}/${request.shareProto}`,
    }),
  };
  return { filter, builds };
};

const pool = (name: string): ReportedPoolCapabilities =>
  ({
    pool_name: name,
    storage_protocol: 'NFS_CIFS',
    total_capacity_gb: 100,
    free_capacity_gb: 100,
    reserved_percentage: 0,
    reserved_snapshot_percentage: 0,
    reserved_share_extend_percentage: 0,
  }) as unknown as ReportedPoolCapabilities;

describe('FilterSchedulerPlacement priming', () => {
  const shareType = { id: 'type-1', name: 'default', extraSpecs: {} };
  const setUp = () => {
    const registry = new PoolStateRegistry();
    const now = Date.now();
    registry.report('h1@be', [pool('a')], now, 'az-1');
    registry.report('h2@be', [pool('a')], now, 'az-2');
    const { filter, builds } = recording();
    const scheduler = new FilterScheduler(registry, {
      filters: ['AvailabilityZoneFilter', filter, 'CapacityFilter'],
    });
    return {
      registry,
      builds,
      scheduler,
      placement: new FilterSchedulerPlacement(registry, scheduler),
    };
  };

  it('prepares every share type in every protocol and zone (and none) and places nothing', () => {
    const { registry, builds, placement } = setUp();
    expect(placement.primeShareTypes([shareType], ['NFS', 'CIFS'])).toBe(6);
    expect(builds.sort()).toEqual([
      'CIFS/-',
      'CIFS/az-1',
      'CIFS/az-2',
      'NFS/-',
      'NFS/az-1',
      'NFS/az-2',
    ]);
    expect(registry.columns.allocatedGb[0]).toBe(0);
  });

  it('lets the first share of a primed kind start from what was prepared', () => {
    const { builds, placement, scheduler } = setUp();
    placement.primeShareTypes([shareType], ['NFS']);
    const decision = scheduler.schedule(
      schedulingRequest({
        shareId: 'instance-1',
        size: 1,
        shareProto: 'NFS',
        shareType,
        availabilityZone: 'az-2',
      }),
    );
    expect(decision).toMatchObject({ outcome: 'placed', host: 'h2@be#a' });
    expect(builds).toHaveLength(3);
  });

  it('stops at the limit', () => {
    const { builds, placement } = setUp();
    expect(placement.primeShareTypes([shareType, { ...shareType, id: 'type-2' }], ['NFS'], 4)).toBe(
      4,
    );
    expect(builds).toHaveLength(4);
  });
});
