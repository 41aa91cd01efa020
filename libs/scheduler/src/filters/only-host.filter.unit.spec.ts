import { keptBy, pool, registryWith } from '../test-support/scheduler-fixtures.js';
import { onlyHostFilter } from './only-host.filter.js';

describe('OnlyHostFilter', () => {
  const registry = registryWith([{ backend: 'h1@be1', pools: [pool('a'), pool('b')] }]);

  it('passes every pool without an only_host hint', () => {
    expect(keptBy(onlyHostFilter, registry)).toEqual(['h1@be1#a', 'h1@be1#b']);
  });

  it('keeps exactly the named pool host string', () => {
    expect(keptBy(onlyHostFilter, registry, { onlyHost: 'h1@be1#b' })).toEqual(['h1@be1#b']);
  });

  it('keeps nothing for a back end name without the pool part', () => {
    expect(keptBy(onlyHostFilter, registry, { onlyHost: 'h1@be1' })).toEqual([]);
  });
});
