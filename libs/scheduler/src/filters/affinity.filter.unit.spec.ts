import { keptBy, pool, registryWith } from '../test-support/scheduler-fixtures.js';
import { affinityFilter } from './affinity.filter.js';

describe('AffinityFilter (same_host)', () => {
  const registry = registryWith([{ backend: 'h1@be', pools: [pool('a'), pool('b'), pool('c')] }]);

  it('passes everything without the hint', () => {
    expect(keptBy(affinityFilter, registry)).toHaveLength(3);
  });

  it('keeps the pools that host an instance of every listed share (intersection)', () => {
    expect(
      keptBy(affinityFilter, registry, {
        sameHost: [
          { shareId: 's1', instanceHosts: ['h1@be#a', 'h1@be#b'] },
          { shareId: 's2', instanceHosts: ['h1@be#b', 'h1@be#c'] },
        ],
      }),
    ).toEqual(['h1@be#b']);
  });

  it('stops with nothing when a listed share is unknown or has no instance', () => {
    expect(
      keptBy(affinityFilter, registry, { sameHost: [{ shareId: 'missing', instanceHosts: [] }] }),
    ).toEqual([]);
  });
});
