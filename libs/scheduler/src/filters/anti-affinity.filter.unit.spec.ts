import { keptBy, pool, registryWith } from '../test-support/scheduler-fixtures.js';
import { antiAffinityFilter } from './anti-affinity.filter.js';

describe('AntiAffinityFilter (different_host)', () => {
  const registry = registryWith([{ backend: 'h1@be', pools: [pool('a'), pool('b'), pool('c')] }]);

  it('passes everything without the hint', () => {
    expect(keptBy(antiAffinityFilter, registry)).toHaveLength(3);
  });

  it("removes the exact pools of every listed share's instances (union); other pools of the back end pass", () => {
    expect(
      keptBy(antiAffinityFilter, registry, {
        differentHost: [
          { shareId: 's1', instanceHosts: ['h1@be#a'] },
          { shareId: 's2', instanceHosts: ['h1@be#b', 'elsewhere@be#x', ''] },
        ],
      }),
    ).toEqual(['h1@be#c']);
  });

  it('stops with nothing when a listed share is unknown', () => {
    expect(
      keptBy(antiAffinityFilter, registry, {
        differentHost: [{ shareId: 'missing', instanceHosts: [] }],
      }),
    ).toEqual([]);
  });
});
