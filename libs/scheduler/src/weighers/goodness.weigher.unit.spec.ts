import { pool, rawWeights, registryWith } from '../test-support/scheduler-fixtures.js';
import { goodnessWeigher } from './goodness.weigher.js';

describe('GoodnessWeigher', () => {
  it('adds nothing when no pool has a goodness_function', () => {
    expect(
      rawWeights(goodnessWeigher, registryWith([{ backend: 'h@be', pools: [pool('a')] }])),
    ).toBeNull();
  });

  it.each<[string, number]>([
    ['100 - capabilities.utilization', 58],
    ['capabilities.utilization > 40', 100],
    ['capabilities.utilization > 50', 0],
    ['capabilities.utilization * 3', 0],
    ['0 - 1', 0],
    ['capabilities.nothing', 0],
    ['1 +', 0],
    ['share.size * 2', 20],
    ['stats.free_capacity_gb / 10', 50],
  ])('rates %s as %d', (goodness, expected) => {
    const registry = registryWith([
      {
        backend: 'h@be',
        pools: [
          pool('a', { utilization: 42.7, goodness_function: goodness }),
          pool('b', { goodness_function: null }),
        ],
      },
    ]);
    expect(rawWeights(goodnessWeigher, registry, { size: 10 })).toEqual({
      'h@be#a': expected,
      'h@be#b': 0,
    });
  });
});
