import type { PreparedFilter } from '../filters/scheduler-filter.js';
import { PoolStateRegistry } from '../pool-state/pool-state-registry.js';
import { schedulingContext } from '../request/scheduling-context.js';
import type { SchedulingRequestInput } from '../request/scheduling-request.js';
import { pool, request, seededRandom } from '../test-support/scheduler-fixtures.js';
import { DEFAULT_FILTERS } from './scheduler-config.js';
import { resolveFilter } from './scheduler-catalogue.js';
import { StaticPoolSets } from './static-pool-sets.js';

const filters = DEFAULT_FILTERS.map(resolveFilter);
const dedupeType: Partial<SchedulingRequestInput> = {
  shareType: { id: 't', name: 't', extraSpecs: { dedupe: '<is> True' } },
};

const prepare = (
  registry: PoolStateRegistry,
  input: Partial<SchedulingRequestInput>,
  now: number,
): (PreparedFilter | null)[] => {
  registry.refresh(now);
  const context = schedulingContext(registry, request(input), now);
  return filters.map((filter) => filter.prepare(context));
};

/** What the sets must hold: every live pool through every static filter, from scratch. */
const fromScratch = (prepared: readonly (PreparedFilter | null)[], live: Int32Array): number[] => {
  const pools = Int32Array.from(live);
  let count = pools.length;
  for (const filter of prepared) {
    if (filter?.staticKey !== undefined) count = filter.keep(pools, count);
  }
  return [...pools.subarray(0, count)];
};

/** Ten back ends of two pools each, every other one deduplicating; zones az-1 and az-2. */
const cloud = (serviceDownTimeMs = 60_000) => {
  const registry = new PoolStateRegistry({ serviceDownTimeMs });
  for (let i = 0; i < 10; i++) {
    registry.report(
      `h${i}@be`,
      [pool('a', { dedupe: i % 2 === 0 }), pool('b', { dedupe: i % 2 === 0 })],
      0,
      i < 5 ? 'az-1' : 'az-2',
    );
  }
  return registry;
};

const hostsOf = (registry: PoolStateRegistry, pools: Int32Array) =>
  [...pools].map((row) => registry.columns.host[row]);

describe('StaticPoolSets', () => {
  it('keeps the very same set when a report changes only capacity figures', () => {
    const registry = cloud();
    const sets = new StaticPoolSets(registry);
    const before = sets.pools(prepare(registry, dedupeType, 1));
    registry.report(
      'h2@be',
      [
        pool('a', { dedupe: true, free_capacity_gb: 10 }),
        pool('b', { dedupe: true, free_capacity_gb: 20 }),
      ],
      2,
      'az-1',
    );
    expect(sets.pools(prepare(registry, dedupeType, 3))).toBe(before);
  });

  it('takes a pool out, and back in, as reports change a capability the share type requires', () => {
    const registry = cloud();
    const sets = new StaticPoolSets(registry);
    expect(hostsOf(registry, sets.pools(prepare(registry, dedupeType, 1)))).toHaveLength(10);
    registry.report(
      'h2@be',
      [pool('a', { dedupe: false }), pool('b', { dedupe: true })],
      2,
      'az-1',
    );
    const without = hostsOf(registry, sets.pools(prepare(registry, dedupeType, 3)));
    expect(without).not.toContain('h2@be#a');
    expect(without).toContain('h2@be#b');
    registry.report(
      'h3@be',
      [pool('a', { dedupe: true }), pool('b', { dedupe: false })],
      4,
      'az-1',
    );
    const pools = sets.pools(prepare(registry, dedupeType, 5));
    expect(hostsOf(registry, pools)).toContain('h3@be#a');
    expect([...pools]).toEqual(fromScratch(prepare(registry, dedupeType, 5), registry.livePools()));
  });

  it('drops the pools of a back end that goes down and takes them back when it reports again', () => {
    const registry = cloud();
    const sets = new StaticPoolSets(registry);
    for (let i = 0; i < 10; i++) {
      if (i !== 4) registry.report(`h${i}@be`, [pool('a'), pool('b')], 50_000, 'az-1');
    }
    const zoneType = { availabilityZone: 'az-1' };
    expect(hostsOf(registry, sets.pools(prepare(registry, zoneType, 50_001)))).toHaveLength(20);
    const down = hostsOf(registry, sets.pools(prepare(registry, zoneType, 70_000)));
    expect(down).toHaveLength(18);
    expect(down).not.toContain('h4@be#a');
    registry.report('h4@be', [pool('a'), pool('b')], 70_001, 'az-1');
    expect(hostsOf(registry, sets.pools(prepare(registry, zoneType, 70_002)))).toHaveLength(20);
  });

  it('follows a back end into another zone, per requested zone', () => {
    const registry = cloud();
    const sets = new StaticPoolSets(registry);
    const inZone = (zone: string, now: number) =>
      hostsOf(registry, sets.pools(prepare(registry, { availabilityZone: zone }, now)));
    expect(inZone('az-1', 1)).toContain('h1@be#a');
    expect(inZone('az-2', 1)).not.toContain('h1@be#a');
    registry.report('h1@be', [pool('a'), pool('b')], 2, 'az-2');
    expect(inZone('az-1', 3)).not.toContain('h1@be#a');
    expect(inZone('az-2', 3)).toEqual(expect.arrayContaining(['h1@be#a', 'h1@be#b']));
  });

  it('takes in new back ends and survives back ends being removed', () => {
    const registry = cloud();
    const sets = new StaticPoolSets(registry);
    sets.pools(prepare(registry, dedupeType, 1));
    registry.report('new@be', [pool('a', { dedupe: true })], 2, 'az-1');
    expect(hostsOf(registry, sets.pools(prepare(registry, dedupeType, 3)))).toContain('new@be#a');
    registry.removeBackend('h0@be');
    const pools = sets.pools(prepare(registry, dedupeType, 4));
    expect(hostsOf(registry, pools)).not.toContain('h0@be#a');
    expect([...pools]).toEqual(fromScratch(prepare(registry, dedupeType, 4), registry.livePools()));
  });

  it('always equals the sets built from scratch, through a long run of random reports', () => {
    const random = seededRandom(7);
    const registry = cloud();
    const sets = new StaticPoolSets(registry);
    const shapes: Partial<SchedulingRequestInput>[] = [
      dedupeType,
      { availabilityZone: 'az-2' },
      { ...dedupeType, availabilityZone: 'az-1' },
    ];
    let now = 0;
    for (let step = 0; step < 300; step++) {
      now += 1_000 + random(15_000);
      const backend = random(11);
      const pools = Array.from({ length: 1 + random(3) }, (_, i) =>
        pool(['a', 'b', 'c'][i] as string, { dedupe: random(2) === 0 }),
      );
      registry.report(`h${backend}@be`, pools, now, random(2) === 0 ? 'az-1' : 'az-2');
      const shape = shapes[random(shapes.length)] as Partial<SchedulingRequestInput>;
      const prepared = prepare(registry, shape, now + random(70_000));
      expect([...sets.pools(prepared)]).toEqual(fromScratch(prepared, registry.livePools()));
    }
  });
});
