import { pool, registryWith } from '../test-support/scheduler-fixtures.js';
import { PoolStateRegistry } from './pool-state-registry.js';
import { getPool, listPools } from './pool-view.js';

const hosts = (registry: PoolStateRegistry, now = 1) => {
  registry.refresh(now);
  return [...registry.livePools()].map((index) => registry.columns.host[index]);
};
const free = (registry: PoolStateRegistry, host: string) =>
  getPool(registry, 1, host)?.state.freeCapacityGb;

describe('PoolStateRegistry', () => {
  describe('given capability reports', () => {
    it('enumerates back ends in registration order and pools in report order', () => {
      const registry = registryWith([
        { backend: 'h2@be', pools: [pool('z'), pool('a')] },
        { backend: 'h1@be', pools: [pool('m')] },
      ]);
      expect(hosts(registry)).toEqual(['h2@be#z', 'h2@be#a', 'h1@be#m']);
    });

    it('grows its tables as back ends register, keeping every row', () => {
      const backends = Array.from({ length: 30 }, (_, i) => ({
        backend: `h${String(i).padStart(2, '0')}@be`,
        pools: [pool('a', { free_capacity_gb: i }), pool('b', { free_capacity_gb: 100 + i })],
      }));
      const registry = registryWith(backends);
      expect(registry.size).toBe(60);
      expect(hosts(registry).slice(-2)).toEqual(['h29@be#a', 'h29@be#b']);
      expect(free(registry, 'h17@be#b')).toBe(117);
    });

    it("keeps a back end's known pools in place, appends new ones and drops missing ones", () => {
      const registry = registryWith([{ backend: 'h@be', pools: [pool('a'), pool('b')] }]);
      registry.report('h@be', [pool('c'), pool('b')], 1, 'az-1');
      expect(hosts(registry)).toEqual(['h@be#b', 'h@be#c']);
    });

    it('ignores a report older than the last one taken', () => {
      const registry = registryWith([
        { backend: 'h@be', pools: [pool('a', { free_capacity_gb: 400 })] },
      ]);
      registry.report('h@be', [pool('a', { free_capacity_gb: 300 })], 10, 'az-1');
      expect(registry.report('h@be', [pool('a', { free_capacity_gb: 999 })], 5, 'az-1')).toBe(
        false,
      );
      expect(free(registry, 'h@be#a')).toBe(300);
    });

    it('rejects a pool without the mandatory keys', () => {
      const registry = new PoolStateRegistry();
      const incomplete = { pool_name: 'x', total_capacity_gb: 1 } as unknown as Parameters<
        PoolStateRegistry['report']
      >[1][number];
      expect(() => registry.report('h@be', [incomplete], 0)).toThrow(/lacks free_capacity_gb/);
    });

    it('forgets a removed back end', () => {
      const registry = registryWith([
        { backend: 'h1@be', pools: [pool('a')] },
        { backend: 'h2@be', pools: [pool('a')] },
      ]);
      registry.removeBackend('h1@be');
      expect(hosts(registry)).toEqual(['h2@be#a']);
      expect(registry.poolIndex('h2@be#a')).toBe(0);
    });
  });

  describe('telling caches what changed', () => {
    it('moves capabilityVersion and the back end stamp for a capability, a zone or liveness, not for capacity figures', () => {
      const registry = new PoolStateRegistry({ serviceDownTimeMs: 60_000 });
      registry.report('h1@be', [pool('a')], 0, 'az-1');
      registry.report('h2@be', [pool('a')], 0, 'az-1');
      registry.refresh(1);
      const version = registry.capabilityVersion;
      const stamp = registry.backendChangedAt(0);
      const capacity = { free_capacity_gb: 10, allocated_capacity_gb: 990, timestamp: 'later' };
      registry.report('h1@be', [pool('a', capacity)], 2, 'az-1');
      expect([registry.capabilityVersion, registry.backendChangedAt(0)]).toEqual([version, stamp]);
      expect(free(registry, 'h1@be#a')).toBe(10);
      registry.report('h1@be', [pool('a', { ...capacity, dedupe: true })], 3, 'az-1');
      expect(registry.backendChangedAt(0)).toBeGreaterThan(stamp);
      const moved = registry.capabilityVersion;
      registry.report('h1@be', [pool('a', { ...capacity, dedupe: true })], 4, 'az-2');
      expect(registry.capabilityVersion).toBeGreaterThan(moved);
      const beforeDown = registry.capabilityVersion;
      registry.report('h1@be', [pool('a', { ...capacity, dedupe: true })], 60_000, 'az-2');
      registry.refresh(61_000);
      expect(registry.capabilityVersion).toBeGreaterThan(beforeDown);
      expect(registry.backendChangedAt(1)).toBe(registry.capabilityVersion);
    });

    it("moves them when a filter function's outcome changes with the capacity it reads", () => {
      const registry = registryWith([
        {
          backend: 'h@be',
          pools: [pool('a', { filter_function: 'capabilities.free_capacity_gb > 100' })],
        },
      ]);
      const version = registry.capabilityVersion;
      registry.report(
        'h@be',
        [
          pool('a', {
            filter_function: 'capabilities.free_capacity_gb > 100',
            free_capacity_gb: 400,
          }),
        ],
        1,
        'az-1',
      );
      expect(registry.capabilityVersion).toBe(version);
      registry.report(
        'h@be',
        [
          pool('a', {
            filter_function: 'capabilities.free_capacity_gb > 100',
            free_capacity_gb: 50,
          }),
        ],
        2,
        'az-1',
      );
      expect(registry.capabilityVersion).toBeGreaterThan(version);
    });
  });

  describe('given placements (consume_from_share)', () => {
    const thinPool = () =>
      registryWith([
        {
          backend: 'h@be',
          pools: [
            pool('a', {
              thin_provisioning: true,
              free_capacity_gb: 500,
              allocated_capacity_gb: 100,
              provisioned_capacity_gb: 200,
            }),
          ],
        },
      ]);

    it('debits free, allocated and provisioned capacity', () => {
      const registry = thinPool();
      expect(registry.consume('h@be#a', 'share-1', 10, 5)).toBe(true);
      expect(getPool(registry, 5, 'h@be#a')?.state).toMatchObject({
        freeCapacityGb: 490,
        allocatedCapacityGb: 110,
        provisionedCapacityGb: 210,
        updatedAt: 5,
      });
    });

    it('applies each share once, however often its placement is replayed', () => {
      const registry = thinPool();
      registry.consume('h@be#a', 'share-1', 10, 5);
      expect(registry.consume('h@be#a', 'share-1', 10, 5)).toBe(false);
      registry.consume('h@be#a', 'share-2', 5, 6);
      expect(free(registry, 'h@be#a')).toBe(485);
    });

    it('ignores a placement that the last report already reflects', () => {
      const registry = thinPool();
      registry.report('h@be', [pool('a', { free_capacity_gb: 450 })], 10, 'az-1');
      expect(registry.consume('h@be#a', 'share-1', 10, 10)).toBe(false);
      expect(free(registry, 'h@be#a')).toBe(450);
    });

    it('lets a report newer than the placements reset them', () => {
      const registry = thinPool();
      registry.consume('h@be#a', 'share-1', 10, 5);
      registry.report('h@be', [pool('a', { free_capacity_gb: 480 })], 6, 'az-1');
      expect(free(registry, 'h@be#a')).toBe(480);
      expect(registry.consume('h@be#a', 'share-2', 10, 7)).toBe(true);
      expect(free(registry, 'h@be#a')).toBe(470);
    });

    it('keeps the debit when a report is older than the placement, but takes its capabilities', () => {
      const registry = thinPool();
      registry.consume('h@be#a', 'share-1', 10, 5);
      registry.report(
        'h@be',
        [pool('a', { free_capacity_gb: 999, vendor_name: 'New' })],
        4,
        'az-1',
      );
      const view = getPool(registry, 5, 'h@be#a');
      expect(view?.state.freeCapacityGb).toBe(490);
      expect(view?.capabilities['vendor_name']).toBe('New');
    });

    it('ignores a placement on an unknown pool', () => {
      expect(thinPool().consume('h@be#gone', 'share-1', 10, 5)).toBe(false);
    });
  });

  describe('given back ends that stop reporting', () => {
    it('leaves them out after service_down_time and takes them back on their next report', () => {
      const registry = new PoolStateRegistry({ serviceDownTimeMs: 60_000 });
      registry.report('h1@be', [pool('a')], 0, 'az-1');
      registry.report('h2@be', [pool('a')], 30_000, 'az-1');
      expect(hosts(registry, 60_000)).toEqual(['h1@be#a', 'h2@be#a']);
      expect(hosts(registry, 60_001)).toEqual(['h2@be#a']);
      registry.report('h1@be', [pool('a')], 70_000, 'az-1');
      expect(hosts(registry, 70_000)).toEqual(['h1@be#a', 'h2@be#a']);
      expect(getPool(registry, 95_000, 'h2@be#a')).toBeUndefined();
    });
  });

  describe('given filter and goodness functions', () => {
    it('compiles each distinct text once for all pools', () => {
      const fn = 'capabilities.utilization < 70';
      const registry = registryWith([
        {
          backend: 'h@be',
          pools: [pool('a', { filter_function: fn }), pool('b', { filter_function: fn })],
        },
      ]);
      expect(registry.columns.filterFunction[0]).toBe(registry.columns.filterFunction[1]);
      expect(registry.expressions.size).toBe(1);
    });
  });

  describe('admin views (scheduler-stats pools)', () => {
    const registry = registryWith([
      {
        backend: 'alpha@gold',
        zone: 'az-1',
        pools: [
          pool('p1', { storage_protocol: 'NFS' }),
          pool('p2', { storage_protocol: 'CEPHFS' }),
        ],
      },
      { backend: 'beta@silver', zone: 'az-2', pools: [pool('p1', { storage_protocol: 'NFS' })] },
    ]);

    it('lists name, host, backend, pool, AZ, capabilities and live state', () => {
      const [first] = listPools(registry, 1);
      expect(first).toMatchObject({
        name: 'alpha@gold#p1',
        host: 'alpha',
        backend: 'gold',
        pool: 'p1',
        availabilityZone: 'az-1',
        capabilities: { storage_protocol: 'NFS' },
        state: { freeCapacityGb: 500, totalCapacityGb: 1000 },
      });
    });

    it('matches filters as prefix-anchored regular expressions', () => {
      expect(listPools(registry, 1, { host: 'be' }).map((view) => view.name)).toEqual([
        'beta@silver#p1',
      ]);
      expect(
        listPools(registry, 1, { pool: 'p1', backend: 'g.ld' }).map((view) => view.name),
      ).toEqual(['alpha@gold#p1']);
      expect(listPools(registry, 1, { name: 'eta' })).toEqual([]);
    });

    it('excludes every pool for an unknown filter key', () => {
      expect(listPools(registry, 1, { vendor: 'x' })).toEqual([]);
    });

    it("keeps the pools that satisfy a share type's extra specs", () => {
      expect(
        listPools(registry, 1, {}, { storage_protocol: '<in> CEPHFS' }).map((view) => view.name),
      ).toEqual(['alpha@gold#p2']);
    });
  });
});
