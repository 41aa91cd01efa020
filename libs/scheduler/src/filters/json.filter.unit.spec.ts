import { keptBy, pool, registryWith } from '../test-support/scheduler-fixtures.js';
import { jsonFilter } from './json.filter.js';

describe('JsonFilter', () => {
  const registry = registryWith([
    { backend: 'h1@be', pools: [pool('small', { free_capacity_gb: 100, vendor_name: 'Acme' })] },
    { backend: 'h2@be', pools: [pool('large', { free_capacity_gb: 900, vendor_name: 'Other' })] },
  ]);
  const kept = (query: unknown) =>
    keptBy(jsonFilter, registry, { jsonQuery: JSON.stringify(query) });

  it('passes everything without a query', () => {
    expect(keptBy(jsonFilter, registry)).toHaveLength(2);
  });

  it.each<[string, unknown, string[]]>([
    ['>=', ['>=', '$free_capacity_gb', 500], ['h2@be#large']],
    ['<', ['<', '$free_capacity_gb', 500], ['h1@be#small']],
    ['= on a capability', ['=', '$capabilities.vendor_name', 'Acme'], ['h1@be#small']],
    ['in', ['in', '$capabilities.vendor_name', 'Other', 'Third'], ['h2@be#large']],
    [
      'and',
      ['and', ['>', '$free_capacity_gb', 50], ['=', '$capabilities.vendor_name', 'Other']],
      ['h2@be#large'],
    ],
    [
      'or',
      ['or', ['<', '$free_capacity_gb', 50], ['=', '$capabilities.vendor_name', 'Acme']],
      ['h1@be#small'],
    ],
    [
      'not (a list; any true passes)',
      ['not', ['=', '$capabilities.vendor_name', 'Acme']],
      ['h2@be#large'],
    ],
    [
      'a missing variable is dropped, leaving too few arguments',
      ['=', '$capabilities.nothing', 'x'],
      [],
    ],
  ])('%s', (_name, query, expected) => {
    expect(kept(query)).toEqual(expected);
  });

  it('fails every pool on an unknown command', () => {
    expect(kept(['~', 1, 2])).toEqual([]);
  });

  it('keeps nothing when the query is not JSON', () => {
    expect(keptBy(jsonFilter, registry, { jsonQuery: '[>=' })).toEqual([]);
  });
});
