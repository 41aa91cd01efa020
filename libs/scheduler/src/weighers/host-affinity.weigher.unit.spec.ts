import { pool, rawWeights, registryWith } from '../test-support/scheduler-fixtures.js';
import { hostAffinityWeigher } from './host-affinity.weigher.js';

describe('HostAffinityWeigher', () => {
  const registry = registryWith([
    { backend: 'h1@be', zone: 'az-1', pools: [pool('a'), pool('b')] },
    { backend: 'h2@be', zone: 'az-2', pools: [pool('a')] },
  ]);
  const clone = (availabilityZone: string | null) => ({
    availabilityZone,
    snapshot: { id: 's', host: 'h1@be#a', shareAvailabilityZone: 'az-1' },
  });

  it('adds nothing for a share that is not a clone', () => {
    expect(rawWeights(hostAffinityWeigher, registry)).toBeNull();
  });

  it('gives 100 to the snapshot pool, 75 to its back end, 50 elsewhere when the source AZ is the requested AZ', () => {
    expect(rawWeights(hostAffinityWeigher, registry, clone('az-1'))).toEqual({
      'h1@be#a': 100,
      'h1@be#b': 75,
      'h2@be#a': 50,
    });
  });

  it('gives 25 to other back ends when the requested AZ differs from the source AZ, or none is requested', () => {
    expect(rawWeights(hostAffinityWeigher, registry, clone('az-2'))?.['h2@be#a']).toBe(25);
    expect(rawWeights(hostAffinityWeigher, registry, clone(null))?.['h2@be#a']).toBe(25);
  });
});
