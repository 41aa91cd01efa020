import { keptBy, pool, registryWith } from '../test-support/scheduler-fixtures.js';
import { shareReplicationFilter } from './share-replication.filter.js';

const replicated = { shareType: { id: 't', name: 'r', extraSpecs: { replication_type: 'dr' } } };

describe('ShareReplicationFilter', () => {
  const registry = registryWith([
    {
      backend: 'h1@be',
      pools: [pool('a', { replication_domain: 'rd-1' }), pool('b', { replication_domain: 'rd-1' })],
    },
    { backend: 'h2@be', pools: [pool('a', { replication_domain: 'rd-2' })] },
    { backend: 'h3@be', pools: [pool('a')] },
  ]);

  it('passes everything for a type without replication_type', () => {
    expect(keptBy(shareReplicationFilter, registry)).toHaveLength(4);
  });

  it('needs a replication domain for a replicable share', () => {
    expect(keptBy(shareReplicationFilter, registry, replicated)).toEqual([
      'h1@be#a',
      'h1@be#b',
      'h2@be#a',
    ]);
  });

  it("keeps, for a new replica, the active replica's domain minus pools that already hold a replica", () => {
    expect(
      keptBy(shareReplicationFilter, registry, {
        ...replicated,
        activeReplicaHost: 'h1@be#a',
        allReplicaHosts: ['h1@be#a'],
      }),
    ).toEqual(['h1@be#b']);
  });

  it("keeps nothing when the active replica's pool is unknown (its domain is null)", () => {
    expect(
      keptBy(shareReplicationFilter, registry, {
        ...replicated,
        activeReplicaHost: 'gone@be#a',
        allReplicaHosts: [],
      }),
    ).toEqual([]);
  });
});
