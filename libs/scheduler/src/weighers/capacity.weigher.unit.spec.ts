import { pool, rawWeights, registryWith } from '../test-support/scheduler-fixtures.js';
import { capacityWeigher } from './capacity.weigher.js';

describe('CapacityWeigher', () => {
  it('weighs thick pools by floor(free - total * reserved)', () => {
    const registry = registryWith([
      {
        backend: 'h@be',
        pools: [
          pool('a', { total_capacity_gb: 1000, free_capacity_gb: 555.5, reserved_percentage: 5 }),
        ],
      },
    ]);
    expect(rawWeights(capacityWeigher, registry)).toEqual({ 'h@be#a': 505 });
  });

  it('weighs thin pools by floor(total * ratio - provisioned - total * reserved)', () => {
    const registry = registryWith([
      {
        backend: 'h@be',
        pools: [
          pool('a', {
            thin_provisioning: true,
            total_capacity_gb: 100,
            max_over_subscription_ratio: 2.5,
            provisioned_capacity_gb: 120.5,
            reserved_percentage: 10,
          }),
        ],
      },
    ]);
    expect(rawWeights(capacityWeigher, registry)).toEqual({ 'h@be#a': 119 });
  });

  it('uses the reserved snapshot percentage for clones', () => {
    const registry = registryWith([
      { backend: 'h@be', pools: [pool('a', { reserved_snapshot_percentage: 10 })] },
    ]);
    expect(rawWeights(capacityWeigher, registry, { snapshotId: 'snap' })).toEqual({
      'h@be#a': 400,
    });
  });

  it("puts 'unknown' capacity just below the others with a positive multiplier", () => {
    const registry = registryWith([
      {
        backend: 'h@be',
        pools: [
          pool('a', { free_capacity_gb: 'unknown' }),
          pool('b', { free_capacity_gb: 300 }),
          pool('c', { free_capacity_gb: 200 }),
        ],
      },
    ]);
    expect(rawWeights(capacityWeigher, registry)).toEqual({
      'h@be#a': 199,
      'h@be#b': 300,
      'h@be#c': 200,
    });
  });

  it("puts 'unknown' capacity just above the others with a negative multiplier (stacking)", () => {
    const registry = registryWith([
      {
        backend: 'h@be',
        pools: [pool('a', { total_capacity_gb: 'unknown' }), pool('b', { free_capacity_gb: 300 })],
      },
    ]);
    expect(rawWeights(capacityWeigher, registry, {}, { capacityWeightMultiplier: -1 })).toEqual({
      'h@be#a': 301,
      'h@be#b': 300,
    });
  });

  it('leaves all-unknown pools infinite (they then normalise to 0)', () => {
    const registry = registryWith([
      { backend: 'h@be', pools: [pool('a', { free_capacity_gb: 'unknown' })] },
    ]);
    expect(rawWeights(capacityWeigher, registry)).toEqual({ 'h@be#a': -Infinity });
  });
});
