import { keptBy, pool, registryWith } from '../test-support/scheduler-fixtures.js';
import { driverFilter } from './driver.filter.js';

describe('DriverFilter', () => {
  it('passes pools without a filter_function', () => {
    const registry = registryWith([{ backend: 'h@be', pools: [pool('p')] }]);
    expect(keptBy(driverFilter, registry)).toEqual(['h@be#p']);
  });

  it('keeps the pools whose function is truthy (capabilities only, evaluated at report time)', () => {
    const fn = 'capabilities.utilization < 70';
    const registry = registryWith([
      {
        backend: 'h@be',
        pools: [
          pool('busy', { utilization: 70.5, filter_function: fn }),
          pool('calm', { utilization: 69.9, filter_function: fn }),
        ],
      },
    ]);
    expect(keptBy(driverFilter, registry)).toEqual(['h@be#calm']);
  });

  it('evaluates share.* and stats.* per request, with the live (consumed) state', () => {
    const registry = registryWith([
      {
        backend: 'h@be',
        pools: [
          pool('p', {
            free_capacity_gb: 100,
            filter_function: 'share.size < stats.free_capacity_gb',
          }),
        ],
      },
    ]);
    expect(keptBy(driverFilter, registry, { size: 99 })).toEqual(['h@be#p']);
    registry.consume('h@be#p', 'other-share', 10, 5);
    expect(keptBy(driverFilter, registry, { size: 99 })).toEqual([]);
  });

  it('fails a pool whose function raises (unknown key, syntax error)', () => {
    const registry = registryWith([
      {
        backend: 'h@be',
        pools: [
          pool('a', { filter_function: 'capabilities.nothing > 1' }),
          pool('b', { filter_function: '1 +' }),
        ],
      },
    ]);
    expect(keptBy(driverFilter, registry)).toEqual([]);
  });

  it('reads extra.* from the rewritten specs', () => {
    const registry = registryWith([
      { backend: 'h@be', pools: [pool('p', { filter_function: "extra.tier == 'gold'" })] },
    ]);
    const gold = { shareType: { id: 't', name: 't', extraSpecs: { tier: 'gold' } } };
    expect(keptBy(driverFilter, registry, gold)).toEqual(['h@be#p']);
    expect(keptBy(driverFilter, registry)).toEqual([]);
  });
});
