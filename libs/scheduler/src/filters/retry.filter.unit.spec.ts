import { keptBy, pool, registryWith } from '../test-support/scheduler-fixtures.js';
import { ignoreAttemptedHostsFilter } from './ignore-attempted-hosts.filter.js';
import { retryFilter } from './retry.filter.js';

describe.each([retryFilter, ignoreAttemptedHostsFilter])('$name', (filter) => {
  const registry = registryWith([{ backend: 'h1@be', pools: [pool('a'), pool('b')] }]);

  it('passes everything on a first attempt', () => {
    expect(keptBy(filter, registry)).toEqual(['h1@be#a', 'h1@be#b']);
  });

  it('removes the pools of earlier attempts', () => {
    expect(keptBy(filter, registry, { attemptedHosts: ['h1@be#a'] })).toEqual(['h1@be#b']);
  });
});
