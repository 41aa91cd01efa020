import { capacityFilter } from '../filters/capacity.filter.js';
import type { SchedulingRequestInput } from '../request/scheduling-request.js';
import {
  keptBy,
  pool,
  rawWeights,
  registryWith,
  seededRandom,
} from '../test-support/scheduler-fixtures.js';
import { capacityWeigher } from '../weighers/capacity.weigher.js';

/** Manila's CapacityFilter and CapacityWeigher arithmetic, straight from reference 6.4 and 6.5. */
interface Figures {
  readonly total: number | 'unknown';
  readonly free: number | 'unknown' | null;
  readonly provisioned: number;
  readonly ratio: number;
  readonly thin: boolean;
  readonly reservedPercentage: number;
}

const manilaFits = (pool: Figures, size: number, thinLogic: boolean): boolean => {
  const reserved = pool.reservedPercentage / 100;
  if (pool.free === null) return false;
  if (pool.free === 'unknown') return true;
  if (pool.total === 'unknown') return reserved === 0 && size <= pool.free;
  if (pool.total <= 0) return false;
  const free = Math.floor(pool.free - pool.total * reserved);
  if (thinLogic && pool.thin) {
    if (pool.ratio < 1) return false;
    if ((pool.provisioned + size) / pool.total > pool.ratio) return false;
    return free * pool.ratio >= size;
  }
  return free >= size;
};

const manilaWeight = (pool: Figures, thinLogic: boolean): number => {
  const total = pool.total as number;
  const reserved = pool.reservedPercentage / 100;
  return thinLogic && pool.thin
    ? Math.floor(total * pool.ratio - pool.provisioned - total * reserved)
    : Math.floor((pool.free as number) - total * reserved);
};

describe('precomputed capacity figures', () => {
  const random = seededRandom(11);

  /** Pools near every edge: thin ratios around 1, sizes at the ratio bound, odd reserves. */
  const randomPool = (): Figures => {
    const total = [1000, 74_752, 3, 0.5, 0, -1, 'unknown' as const][random(7)] as number;
    const ratio = [0.5, 1, 1.5, 2, 20, 3.7][random(6)] as number;
    const numericTotal = typeof total === 'number' ? total : 1000;
    return {
      total,
      free: [numericTotal / 3 + 0.31, numericTotal, 12.5, 'unknown' as const, null][random(5)] as
        number | 'unknown' | null,
      // A hair off the ratio bound too, where only the exact division can tell.
      provisioned:
        Math.floor(numericTotal * ratio) -
        random(40) +
        ([0, 0.1, 1e-10, -1e-10][random(4)] as number),
      ratio,
      thin: random(2) === 0,
      reservedPercentage: [0, 10, 7, 33, 50][random(5)] as number,
    };
  };

  const report = (figures: readonly Figures[]) =>
    registryWith([
      {
        backend: 'h@be',
        pools: figures.map((f, i) =>
          pool(`p${i}`, {
            total_capacity_gb: f.total,
            free_capacity_gb: f.free,
            provisioned_capacity_gb: f.provisioned,
            max_over_subscription_ratio: f.ratio,
            thin_provisioning: f.thin,
            reserved_percentage: f.reservedPercentage,
            reserved_snapshot_percentage: f.reservedPercentage,
            reserved_share_extend_percentage: f.reservedPercentage,
          }),
        ),
      },
    ]);

  const kinds: [string, Partial<SchedulingRequestInput>][] = [
    ['a new share', {}],
    ['a clone', { snapshotId: 'snap' }],
    ['an extend', { isShareExtend: true }],
  ];
  const thinSpecs: [boolean, Record<string, string>][] = [
    [true, {}],
    [false, { thin_provisioning: 'False' }],
  ];

  it.each(kinds)('the filter keeps exactly the pools Manila keeps, for %s', (_, kind) => {
    const figures = Array.from({ length: 400 }, randomPool);
    const registry = report(figures);
    for (const [thinLogic, extraSpecs] of thinSpecs) {
      for (const figure of figures.slice(0, 60)) {
        const edge = Math.floor(
          (typeof figure.total === 'number' ? figure.total : 1000) * figure.ratio -
            figure.provisioned,
        );
        for (const size of [0, 1, edge - 1, edge, edge + 1, 10, 300]) {
          if (size < 0) continue;
          const input = { ...kind, size, shareType: { id: 't', name: 't', extraSpecs } };
          const expected = figures.flatMap((f, i) =>
            manilaFits(f, size, thinLogic) ? [`h@be#p${i}`] : [],
          );
          expect(keptBy(capacityFilter, registry, input)).toEqual(expected);
        }
      }
    }
  });

  it('the weigher gives Manila raw weights, after placements too', () => {
    const figures = Array.from({ length: 300 }, randomPool).filter(
      (f) => typeof f.total === 'number' && typeof f.free === 'number',
    );
    const registry = report(figures);
    const placed = figures.map(() => random(3) * 7);
    placed.forEach((size, i) => registry.consume(`h@be#p${i}`, `s${i}`, size, 1));
    const afterPlacements = figures.map((f, i) => ({
      ...f,
      free: (f.free as number) - (placed[i] as number),
      provisioned: f.provisioned + (placed[i] as number),
    }));
    for (const [thinLogic, extraSpecs] of thinSpecs) {
      for (const [, kind] of kinds) {
        const weights = rawWeights(capacityWeigher, registry, {
          ...kind,
          shareType: { id: 't', name: 't', extraSpecs },
        });
        expect(Object.values(weights ?? {})).toEqual(
          afterPlacements.map((f) => manilaWeight(f, thinLogic)),
        );
      }
    }
  });
});
