import { ExpiringCache, trustedUntil } from './expiring-cache.js';

const clockAt = (start: number) => {
  const clock = { now: start, read: () => clock.now };
  return clock;
};

describe('ExpiringCache', () => {
  it('given an entry, returns it until its expiry and not from then on', () => {
    const clock = clockAt(1_000);
    const cache = new ExpiringCache<string>(10, clock.read);
    cache.set('a', 'alice', 5_000);

    clock.now = 4_999;
    expect(cache.get('a')).toBe('alice');
    clock.now = 5_000;
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('given an expiry already passed, stores nothing', () => {
    const cache = new ExpiringCache<string>(10, () => 1_000);

    cache.set('a', 'alice', 1_000);

    expect(cache.size).toBe(0);
  });

  it('given it is full, drops the least recently used entry', () => {
    const cache = new ExpiringCache<string>(2, () => 0);
    cache.set('a', 'alice', 10);
    cache.set('b', 'bob', 10);
    cache.get('a');

    cache.set('c', 'carol', 10);

    expect(cache.size).toBe(2);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe('alice');
    expect(cache.get('c')).toBe('carol');
  });

  it('given a size of zero, caches nothing', () => {
    const cache = new ExpiringCache<string>(0, () => 0);

    cache.set('a', 'alice', 10);

    expect(cache.get('a')).toBeUndefined();
  });
});

describe('trustedUntil', () => {
  it('given a token that outlives the cache time, trusts it for the cache time', () => {
    expect(trustedUntil(1_000_000, 300, 1_000_000 + 3_600_000)).toBe(1_300_000);
  });

  it('given a token that expires sooner, trusts it only until its expiry', () => {
    expect(trustedUntil(1_000_000, 300, 1_010_000)).toBe(1_010_000);
  });

  it('given a cache time of zero, trusts it no longer than now', () => {
    expect(trustedUntil(1_000_000, 0, 2_000_000)).toBe(1_000_000);
  });
});
