import { keptBy, pool, registryWith } from '../test-support/scheduler-fixtures.js';
import { antiAffinityFilter } from './anti-affinity.filter.js';

describe('AntiAffinityFilter (different_host, reference 7.3)', () => {
  const registry = registryWith([
    { backend: 'h1@be', pools: [pool('a'), pool('b'), pool('c')] },
    { backend: 'h2@be', pools: [pool('a')] },
  ]);

  it('passes everything without the hint, or with a hint that names no share', () => {
    expect(keptBy(antiAffinityFilter, registry)).toHaveLength(4);
    expect(keptBy(antiAffinityFilter, registry, { differentHost: [] })).toHaveLength(4);
  });

  it("removes the exact pools of every listed share's instances (union); other pools of the back end pass", () => {
    expect(
      keptBy(antiAffinityFilter, registry, {
        differentHost: [
          { shareId: 's1', instanceHosts: ['h1@be#a'] },
          { shareId: 's2', instanceHosts: ['h1@be#b', 'h2@be#a', ''] },
        ],
      }),
    ).toEqual(['h1@be#c']);
  });

  it('ignores hosts no pool reports (a retired back end, an unplaced instance)', () => {
    expect(
      keptBy(antiAffinityFilter, registry, {
        differentHost: [{ shareId: 's1', instanceHosts: ['gone@be#x', ''] }],
      }),
    ).toHaveLength(4);
  });

  it('keeps nothing when the listed shares cover every pool (hard AND)', () => {
    expect(
      keptBy(antiAffinityFilter, registry, {
        differentHost: [
          { shareId: 's1', instanceHosts: ['h1@be#a', 'h1@be#b'] },
          { shareId: 's2', instanceHosts: ['h1@be#c'] },
          { shareId: 's3', instanceHosts: ['h2@be#a'] },
        ],
      }),
    ).toEqual([]);
  });

  it('stops with nothing when a listed share is unknown', () => {
    expect(
      keptBy(antiAffinityFilter, registry, {
        differentHost: [
          { shareId: 's1', instanceHosts: ['h1@be#a'] },
          { shareId: 'missing', instanceHosts: [] },
        ],
      }),
    ).toEqual([]);
  });
});
