import { affinityElements } from './affinity-elements';

describe("affinityElements: a share's affinity links as a graph", () => {
  it('given links both ways, when drawn, then each named share is a node with one edge of its kind', () => {
    const elements = affinityElements(
      { id: 'me', label: 'web', sameHost: ['a'], differentHost: ['b', 'a'] },
      (id) => `share ${id}`,
    );
    expect(elements).toEqual([
      { data: { id: 'me', label: 'web', self: true } },
      { data: { id: 'a', label: 'share a', self: false } },
      { data: { id: 'b', label: 'share b', self: false } },
      { data: { id: 'same_host:a', source: 'me', target: 'a', kind: 'same_host' } },
      { data: { id: 'different_host:b', source: 'me', target: 'b', kind: 'different_host' } },
      { data: { id: 'different_host:a', source: 'me', target: 'a', kind: 'different_host' } },
    ]);
  });

  it('given a link to the share itself, when drawn, then it draws no loop', () => {
    const elements = affinityElements(
      { id: 'me', label: 'web', sameHost: ['me'], differentHost: [] },
      (id) => id,
    );
    expect(elements).toEqual([{ data: { id: 'me', label: 'web', self: true } }]);
  });
});
