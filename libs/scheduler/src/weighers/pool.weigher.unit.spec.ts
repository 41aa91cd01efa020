import { pool, rawWeights, registryWith } from '../test-support/scheduler-fixtures.js';
import { poolWeigher } from './pool.weigher.js';

describe('PoolWeigher', () => {
  const registry = registryWith([{ backend: 'h@be', pools: [pool('a'), pool('b')] }]);

  it('adds nothing without pools holding a usable share server', () => {
    expect(rawWeights(poolWeigher, registry)).toBeNull();
  });

  it('gives 1 to pools with a usable share server', () => {
    expect(rawWeights(poolWeigher, registry, { shareServerPools: ['h@be#b'] })).toEqual({
      'h@be#a': 0,
      'h@be#b': 1,
    });
  });
});
