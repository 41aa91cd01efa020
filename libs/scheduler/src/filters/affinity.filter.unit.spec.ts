import { keptBy, pool, registryWith } from '../test-support/scheduler-fixtures.js';
import { affinityFilter } from './affinity.filter.js';

describe('AffinityFilter (same_host, reference 7.3)', () => {
  const registry = registryWith([
    { backend: 'h1@be', pools: [pool('a'), pool('b'), pool('c')] },
    { backend: 'h2@be', pools: [pool('a')] },
  ]);

  it('passes everything without the hint, or with a hint that names no share', () => {
    expect(keptBy(affinityFilter, registry)).toHaveLength(4);
    expect(keptBy(affinityFilter, registry, { sameHost: [] })).toHaveLength(4);
  });

  it('keeps only the exact pool of the listed share: another pool of its back end fails', () => {
    expect(
      keptBy(affinityFilter, registry, {
        sameHost: [{ shareId: 's1', instanceHosts: ['h1@be#a'] }],
      }),
    ).toEqual(['h1@be#a']);
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

  it('keeps nothing when the listed shares live apart (hard AND)', () => {
    expect(
      keptBy(affinityFilter, registry, {
        sameHost: [
          { shareId: 's1', instanceHosts: ['h1@be#a'] },
          { shareId: 's2', instanceHosts: ['h2@be#a'] },
        ],
      }),
    ).toEqual([]);
  });

  it('keeps nothing next to a share whose only instance is not placed yet', () => {
    expect(
      keptBy(affinityFilter, registry, { sameHost: [{ shareId: 's1', instanceHosts: [''] }] }),
    ).toEqual([]);
  });

  it('stops with nothing when a listed share is unknown or has no instance', () => {
    expect(
      keptBy(affinityFilter, registry, { sameHost: [{ shareId: 'missing', instanceHosts: [] }] }),
    ).toEqual([]);
  });
});
