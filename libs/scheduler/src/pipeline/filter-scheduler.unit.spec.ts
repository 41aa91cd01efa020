import type { SchedulerFilter } from '../filters/scheduler-filter.js';
import { PoolStateRegistry } from '../pool-state/pool-state-registry.js';
import { failed, placed, pool, registryWith, request } from '../test-support/scheduler-fixtures.js';
import { FilterScheduler } from './filter-scheduler.js';
import { UnknownSchedulerComponentError } from './scheduler-catalogue.js';

describe('FilterScheduler', () => {
  describe('given the default filters and weighers', () => {
    it('places on the pool with the most effective free space and debits it', () => {
      const registry = registryWith([
        {
          backend: 'h@be',
          pools: [pool('a', { free_capacity_gb: 300 }), pool('b', { free_capacity_gb: 305 })],
        },
      ]);
      const scheduler = new FilterScheduler(registry);
      const first = placed(scheduler.schedule(request({ shareId: 's1', size: 10 }), 1));
      expect(first).toMatchObject({
        host: 'h@be#b',
        backend: 'h@be',
        candidates: 2,
        weight: 1,
        runnerUpWeight: 0,
        topTies: 1,
      });
      expect(first.pool.state.freeCapacityGb).toBe(295);
      expect(placed(scheduler.schedule(request({ shareId: 's2', size: 10 }), 2)).host).toBe(
        'h@be#a',
      );
    });

    it('gives a tie to the earliest pool', () => {
      const registry = registryWith([{ backend: 'h@be', pools: [pool('a'), pool('b')] }]);
      expect(placed(new FilterScheduler(registry).schedule(request(), 1))).toMatchObject({
        host: 'h@be#a',
        topTies: 2,
        weight: 0,
      });
    });

    it('weighs a clone as the reference example: capacity and host affinity combined (reference 6.8)', () => {
      const domain = { replication_domain: 'rd-1' };
      const registry = registryWith([
        {
          backend: 'h1@be',
          zone: 'az-1',
          pools: [
            pool('a', { free_capacity_gb: 100, ...domain }),
            pool('b', { free_capacity_gb: 300, ...domain }),
          ],
        },
        {
          backend: 'h2@be',
          zone: 'az-1',
          pools: [pool('c', { free_capacity_gb: 200, ...domain })],
        },
      ]);
      const result = placed(
        new FilterScheduler(registry).schedule(
          request({
            size: 1,
            availabilityZone: 'az-1',
            snapshot: { id: 'snap', host: 'h1@be#a', shareAvailabilityZone: 'az-1' },
          }),
          1,
        ),
      );
      expect(result.host).toBe('h1@be#b');
      expect(result.weight).toBe(1.5);
      expect(result.runnerUpWeight).toBe(1);
      expect(result.weights.map((part) => [part.weigher, part.raw, part.normalised])).toEqual([
        ['CapacityWeigher', 300, 1],
        ['GoodnessWeigher', 0, 0],
        ['HostAffinityWeigher', 75, 0.5],
      ]);
    });

    it('never places on a back end that stopped reporting', () => {
      const registry = new PoolStateRegistry({ serviceDownTimeMs: 60_000 });
      registry.report('h1@be', [pool('a', { free_capacity_gb: 900 })], 0, 'az-1');
      registry.report('h2@be', [pool('a', { free_capacity_gb: 100 })], 50_000, 'az-1');
      expect(placed(new FilterScheduler(registry).schedule(request(), 70_000)).host).toBe(
        'h2@be#a',
      );
    });
  });

  describe('when no pool passes', () => {
    const registry = registryWith([
      {
        backend: 'h1@be',
        zone: 'az-1',
        pools: [pool('a', { free_capacity_gb: 5 }), pool('b', { free_capacity_gb: 50 })],
      },
      { backend: 'h2@be', zone: 'az-2', pools: [pool('a', { free_capacity_gb: 500 })] },
    ]);
    const scheduler = new FilterScheduler(registry);

    it("names the filter that removed the last pools and counts each filter's removals in order", () => {
      const result = failed(
        scheduler.schedule(request({ size: 100, availabilityZone: 'az-1' }), 1),
      );
      expect(result.lastFilter).toBe('CapacityFilter');
      expect(result.filters).toEqual([
        { filter: 'OnlyHostFilter', before: 3, removed: 0 },
        { filter: 'AvailabilityZoneFilter', before: 3, removed: 1 },
        { filter: 'CapacityFilter', before: 2, removed: 2 },
      ]);
      expect(result.message).toBe(
        'No valid host was found. Failed to find a weighted host, the last executed filter was CapacityFilter.',
      );
      expect(result.userMessage).toEqual({
        actionId: '001',
        detailId: '009',
        userMessage:
          "allocate host: No storage could be allocated for this share request, Capacity filter didn't succeed.",
      });
    });

    it('gives the generic detail 002 for filters without a message of their own, with the reason', () => {
      const result = failed(
        scheduler.schedule(request({ differentHost: [{ shareId: 'gone', instanceHosts: [] }] }), 1),
      );
      expect(result.lastFilter).toBe('AntiAffinityFilter');
      expect(result.userMessage.detailId).toBe('002');
      expect(result.reason).toMatch(/gone/);
    });

    it('does not debit anything', () => {
      scheduler.schedule(request({ size: 10_000 }), 1);
      expect(registry.columns.freeGb[2]).toBe(500);
    });

    it('names the first filter when there are no pools at all', () => {
      expect(
        failed(new FilterScheduler(new PoolStateRegistry()).schedule(request(), 1)).lastFilter,
      ).toBe('OnlyHostFilter');
    });
  });

  describe('configuration', () => {
    it('rejects an unknown filter or weigher name', () => {
      const registry = new PoolStateRegistry();
      expect(() => new FilterScheduler(registry, { filters: ['NoSuchFilter'] })).toThrow(
        UnknownSchedulerComponentError,
      );
      expect(() => new FilterScheduler(registry, { weighers: ['NoSuchWeigher'] })).toThrow(
        UnknownSchedulerComponentError,
      );
    });

    it('stacks instead of spreading with a negative capacity multiplier', () => {
      const registry = registryWith([
        {
          backend: 'h@be',
          pools: [pool('a', { free_capacity_gb: 300 }), pool('b', { free_capacity_gb: 100 })],
        },
      ]);
      expect(
        placed(
          new FilterScheduler(registry, { capacityWeightMultiplier: -1 }).schedule(request(), 1),
        ).host,
      ).toBe('h@be#b');
    });

    it('runs only the configured filters (here: Retry instead of the defaults)', () => {
      const registry = registryWith([
        {
          backend: 'h@be',
          pools: [pool('a', { free_capacity_gb: 1 }), pool('b', { free_capacity_gb: 2 })],
        },
      ]);
      const scheduler = new FilterScheduler(registry, { filters: ['RetryFilter'] });
      expect(
        placed(scheduler.schedule(request({ size: 100, attemptedHosts: ['h@be#b'] }), 1)).host,
      ).toBe('h@be#a');
    });
  });

  describe('reusing the pools that pass the capability-only filters', () => {
    const specs = { driver_handles_share_servers: 'False', dedupe: '<is> True' };
    const typed = (shareId: string, availabilityZone: string | null = null) =>
      request({ shareId, shareType: { id: 't', name: 't', extraSpecs: specs }, availabilityZone });

    it('follows reports that change a capability, a zone or liveness', () => {
      const registry = new PoolStateRegistry({ serviceDownTimeMs: 60_000 });
      registry.report('h1@be', [pool('a', { dedupe: true, free_capacity_gb: 900 })], 0, 'az-1');
      registry.report('h2@be', [pool('a', { dedupe: true, free_capacity_gb: 100 })], 0, 'az-2');
      const scheduler = new FilterScheduler(registry);
      expect(placed(scheduler.schedule(typed('s1'), 1)).host).toBe('h1@be#a');
      // h1 stops deduplicating: the same type now fits h2 only.
      registry.report('h1@be', [pool('a', { dedupe: false, free_capacity_gb: 900 })], 2, 'az-1');
      expect(placed(scheduler.schedule(typed('s2'), 3)).host).toBe('h2@be#a');
      // h2 moves to az-1, where the request asks for its share.
      registry.report('h1@be', [pool('a', { dedupe: true, free_capacity_gb: 900 })], 4, 'az-1');
      expect(placed(scheduler.schedule(typed('s3', 'az-2'), 5)).host).toBe('h2@be#a');
      registry.report('h2@be', [pool('a', { dedupe: true, free_capacity_gb: 100 })], 6, 'az-1');
      expect(failed(scheduler.schedule(typed('s4', 'az-2'), 7)).lastFilter).toBe(
        'AvailabilityZoneFilter',
      );
      // h1 falls silent: h2 is left.
      registry.report(
        'h2@be',
        [pool('a', { dedupe: true, free_capacity_gb: 100 })],
        70_000,
        'az-1',
      );
      expect(placed(scheduler.schedule(typed('s5'), 70_001)).host).toBe('h2@be#a');
    });

    it('follows capacity-only reports for a share type that requires a capacity figure', () => {
      const registry = registryWith(
        ['h1@be', 'h2@be', 'h3@be', 'h4@be', 'h5@be'].map((backend) => ({
          backend,
          pools: [pool('a', { free_capacity_gb: 300 })],
        })),
      );
      const scheduler = new FilterScheduler(registry);
      const roomy = (shareId: string) =>
        request({
          shareId,
          shareType: { id: 'r', name: 'r', extraSpecs: { free_capacity_gb: '>= 400' } },
        });
      expect(failed(scheduler.schedule(roomy('s1'), 1)).lastFilter).toBe('CapabilitiesFilter');
      registry.report('h4@be', [pool('a', { free_capacity_gb: 450 })], 2, 'az-1');
      expect(placed(scheduler.schedule(roomy('s2'), 3)).host).toBe('h4@be#a');
      registry.report('h4@be', [pool('a', { free_capacity_gb: 100 })], 4, 'az-1');
      expect(failed(scheduler.schedule(roomy('s3'), 5)).lastFilter).toBe('CapabilitiesFilter');
    });

    it('still applies the capacity filter to every request', () => {
      const registry = registryWith([
        { backend: 'h@be', pools: [pool('a', { dedupe: true, free_capacity_gb: 50 })] },
      ]);
      const scheduler = new FilterScheduler(registry);
      expect(placed(scheduler.schedule({ ...typed('s1'), size: 40 }, 1)).host).toBe('h@be#a');
      expect(failed(scheduler.schedule({ ...typed('s2'), size: 40 }, 2)).lastFilter).toBe(
        'CapacityFilter',
      );
    });
  });

  describe('primed for a kind of request', () => {
    /** A static filter that keeps everything and records how many pools each call was given. */
    const recording = () => {
      const given: number[] = [];
      const filter: SchedulerFilter = {
        name: 'RecordingFilter',
        prepare: () => ({
          keep: (_, count) => {
            given.push(count);
            return count;
          },
          staticKey: '',
        }),
      };
      return { filter, given };
    };
    /** Eight back ends of two pools in two zones, and a scheduler with the recording filter. */
    const cloud = () => {
      const registry = registryWith(
        Array.from({ length: 8 }, (_, i) => ({
          backend: `h${i}@be`,
          zone: i < 4 ? 'az-1' : 'az-2',
          pools: [pool('a'), pool('b')],
        })),
      );
      const { filter, given } = recording();
      const scheduler = new FilterScheduler(registry, {
        filters: ['AvailabilityZoneFilter', filter, 'CapacityFilter'],
      });
      return { registry, scheduler, given };
    };

    it('builds what those requests start from without placing anything, once', () => {
      const { registry, scheduler, given } = cloud();
      scheduler.prime(request({ availabilityZone: 'az-1' }), 1);
      expect(given).toEqual([8]);
      expect(registry.columns.allocatedGb[0]).toBe(500);
      expect(placed(scheduler.schedule(request({ availabilityZone: 'az-1' }), 2)).host).toBe(
        'h0@be#a',
      );
      expect(given).toEqual([8]);
      placed(scheduler.schedule(request({ shareId: 's2', availabilityZone: 'az-2' }), 3));
      expect(given).toEqual([8, 8]);
    });

    it('redoes only the pools of a back end whose capabilities changed, not the whole set', () => {
      const { registry, scheduler, given } = cloud();
      scheduler.prime(request(), 1);
      registry.report(
        'h5@be',
        [pool('a', { free_capacity_gb: 900, qos: true }), pool('b')],
        2,
        'az-2',
      );
      expect(placed(scheduler.schedule(request(), 3)).host).toBe('h5@be#a');
      expect(given).toEqual([16, 2]);
    });

    it('redoes nothing for reports that change only capacity figures, yet places by them', () => {
      const { registry, scheduler, given } = cloud();
      scheduler.prime(request(), 1);
      registry.report(
        'h6@be',
        [pool('a'), pool('b', { free_capacity_gb: 950, allocated_capacity_gb: 50 })],
        2,
        'az-2',
      );
      expect(placed(scheduler.schedule(request(), 3)).host).toBe('h6@be#b');
      expect(given).toEqual([16]);
    });
  });

  describe('given two scheduler processes sharing placements through the log', () => {
    const cloud = () =>
      registryWith([
        {
          backend: 'h@be',
          pools: [pool('a', { free_capacity_gb: 300 }), pool('b', { free_capacity_gb: 290 })],
        },
      ]);

    it("sees the other process's placement once it is consumed, and only once", () => {
      const first = cloud();
      const second = cloud();
      const one = new FilterScheduler(first);
      const two = new FilterScheduler(second);
      const placement = placed(one.schedule(request({ shareId: 'share-1', size: 20 }), 10));
      expect(placement.host).toBe('h@be#a');
      // The ShareScheduled event reaches the other process (and, replayed, this one).
      expect(second.consume(placement.host, 'share-1', 20, 10)).toBe(true);
      expect(second.consume(placement.host, 'share-1', 20, 10)).toBe(false);
      expect(first.consume(placement.host, 'share-1', 20, 10)).toBe(false);
      expect(placed(two.schedule(request({ shareId: 'share-2', size: 20 }), 11)).host).toBe(
        'h@be#b',
      );
      expect(first.columns.freeGb[0]).toBe(second.columns.freeGb[0]);
    });
  });
});
