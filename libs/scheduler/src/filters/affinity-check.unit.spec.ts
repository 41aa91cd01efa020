import { failed, placed, pool, registryWith, request } from '../test-support/scheduler-fixtures.js';
import { FilterScheduler } from '../pipeline/filter-scheduler.js';
import { checkAffinity, NO_AFFINITY } from './affinity-check.js';

const A = { shareId: 'a', instanceHosts: ['h1@be#a'] };
const B = { shareId: 'b', instanceHosts: ['h1@be#b'] };
const C = { shareId: 'c', instanceHosts: ['h2@be#a', 'h1@be#b'] };

describe('checkAffinity: one destination against the hints (migration)', () => {
  it('passes any host without hints', () => {
    expect(checkAffinity('h1@be#a', NO_AFFINITY)).toEqual({ passes: true });
  });

  it('passes the pool of every same_host share that holds no different_host share', () => {
    expect(checkAffinity('h1@be#b', { sameHost: [B, C], differentHost: [A] })).toEqual({
      passes: true,
    });
  });

  it('names AffinityFilter for a host missing a same_host share', () => {
    expect(checkAffinity('h2@be#a', { sameHost: [B], differentHost: null })).toMatchObject({
      passes: false,
      filter: 'AffinityFilter',
    });
  });

  it('names AntiAffinityFilter for a host holding a different_host share', () => {
    expect(checkAffinity('h1@be#b', { sameHost: null, differentHost: [A, C] })).toMatchObject({
      passes: false,
      filter: 'AntiAffinityFilter',
    });
  });

  it('fails on a listed share that no longer exists', () => {
    const gone = { shareId: 'gone', instanceHosts: [] };
    expect(checkAffinity('h1@be#a', { sameHost: null, differentHost: [gone] })).toMatchObject({
      passes: false,
      reason: expect.stringMatching(/gone/),
    });
  });
});

describe('both filters in the pipeline: the seed example', () => {
  const registry = registryWith([
    { backend: 'h1@be', pools: [pool('a'), pool('b')] },
    { backend: 'h2@be', pools: [pool('a')] },
  ]);
  const scheduler = new FilterScheduler(registry);

  it('places next to share 3 when shares 1 and 2 are elsewhere', () => {
    const result = scheduler.schedule(
      request({ sameHost: [{ shareId: '3', instanceHosts: ['h2@be#a'] }], differentHost: [A, B] }),
      1,
    );
    expect(placed(result).host).toBe('h2@be#a');
  });

  it('ends in No valid host when share 3 shares a pool with share 1, AntiAffinityFilter last', () => {
    const result = failed(
      scheduler.schedule(
        request({
          sameHost: [{ shareId: '3', instanceHosts: ['h1@be#a'] }],
          differentHost: [A, B],
        }),
        1,
      ),
    );
    expect(result.lastFilter).toBe('AntiAffinityFilter');
    expect(result.message).toBe(
      'No valid host was found. Failed to find a weighted host, the last executed filter was AntiAffinityFilter.',
    );
  });

  it('ends in No valid host for the same share in both hints', () => {
    const result = failed(scheduler.schedule(request({ sameHost: [A], differentHost: [A] }), 1));
    expect(result.message).toMatch(/^No valid host was found/);
  });
});
