import { keptBy, pool, registryWith } from '../test-support/scheduler-fixtures.js';
import { createFromSnapshotFilter } from './create-from-snapshot.filter.js';

describe('CreateFromSnapshotFilter', () => {
  const registry = registryWith([
    {
      backend: 'h1@be',
      pools: [pool('a', { replication_domain: 'rd-1' }), pool('b', { replication_domain: 'rd-1' })],
    },
    { backend: 'h2@be', pools: [pool('a', { replication_domain: 'rd-1' })] },
    { backend: 'h3@be', pools: [pool('a', { replication_domain: 'rd-2' })] },
    { backend: 'h4@be', pools: [pool('a')] },
  ]);
  const clone = (host: string) => ({ snapshot: { id: 's', host, shareAvailabilityZone: 'az-1' } });

  it('passes everything when the share is not a clone', () => {
    expect(keptBy(createFromSnapshotFilter, registry)).toHaveLength(5);
  });

  it("keeps the snapshot's back end and the pools of its replication domain", () => {
    expect(keptBy(createFromSnapshotFilter, registry, clone('h1@be#a'))).toEqual([
      'h1@be#a',
      'h1@be#b',
      'h2@be#a',
    ]);
  });

  it('keeps only the back end when the source pool has no domain', () => {
    expect(keptBy(createFromSnapshotFilter, registry, clone('h4@be#a'))).toEqual(['h4@be#a']);
  });

  it("keeps the back end's pools even when the source pool itself is not reported", () => {
    expect(keptBy(createFromSnapshotFilter, registry, clone('h1@be#gone'))).toEqual([
      'h1@be#a',
      'h1@be#b',
    ]);
  });
});
