import type { QuotaResource } from '#hawser/domain';
import { limitsView } from './limits.view.js';
import { type FieldRow, itShowsTheTableKeys, viewContext } from './test-support/view-context.js';

/** Manila's absolute limits (`api/views/limits.py`): groups from 2.58, replicas from 2.53. */
const ABSOLUTE: readonly FieldRow[] = [
  { key: 'maxTotalShareGigabytes' },
  { key: 'maxTotalSnapshotGigabytes' },
  { key: 'maxTotalShares' },
  { key: 'maxTotalShareSnapshots' },
  { key: 'maxTotalShareNetworks' },
  { key: 'totalSharesUsed' },
  { key: 'totalShareSnapshotsUsed' },
  { key: 'totalShareNetworksUsed' },
  { key: 'totalShareGigabytesUsed' },
  { key: 'totalSnapshotGigabytesUsed' },
  { key: 'maxTotalShareReplicas', from: '2.53' },
  { key: 'maxTotalReplicaGigabytes', from: '2.53' },
  { key: 'totalShareReplicasUsed', from: '2.53' },
  { key: 'totalReplicaGigabytesUsed', from: '2.53' },
  { key: 'maxTotalShareGroups', from: '2.58' },
  { key: 'maxTotalShareGroupSnapshots', from: '2.58' },
  { key: 'totalShareGroupsUsed', from: '2.58' },
  { key: 'totalShareGroupSnapshotsUsed', from: '2.58' },
];

const figures = (value: number) =>
  new Proxy({}, { get: () => value }) as Record<QuotaResource, number>;

describe('limits view: the absolute limits per microversion', () => {
  itShowsTheTableKeys(ABSOLUTE, (ctx) => limitsView(figures(50), figures(3), ctx).limits.absolute, {
    callers: [false],
  });

  it('has no rate limits', () => {
    expect(limitsView(figures(50), figures(3), viewContext('2.73')).limits.rate).toEqual([]);
  });

  it('puts the limit under maxTotal* and the usage under total*Used', () => {
    const { absolute } = limitsView(figures(50), figures(3), viewContext('2.58')).limits;
    expect(absolute).toMatchObject({ maxTotalShares: 50, totalSharesUsed: 3 });
  });
});
