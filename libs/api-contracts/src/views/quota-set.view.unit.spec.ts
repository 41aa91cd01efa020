import { quotaSetView } from './quota-set.view.js';
import { type FieldRow, itShowsTheTableKeys, viewContext } from './test-support/view-context.js';

/** Manila's quota set, reference 1.10 (`api/views/quota_sets.py`), of a project. */
const PROJECT_QUOTA_SET: readonly FieldRow[] = [
  { key: 'id' },
  { key: 'shares' },
  { key: 'gigabytes' },
  { key: 'snapshots' },
  { key: 'snapshot_gigabytes' },
  { key: 'share_networks' },
  { key: 'share_groups', from: '2.40' },
  { key: 'share_group_snapshots', from: '2.40' },
  { key: 'share_replicas', from: '2.53' },
  { key: 'replica_gigabytes', from: '2.53' },
  { key: 'per_share_gigabytes', from: '2.62' },
];
/** A share type's quota set has neither share networks nor share groups. */
const SHARE_TYPE_QUOTA_SET = PROJECT_QUOTA_SET.filter(
  (row) => !['share_networks', 'share_groups', 'share_group_snapshots'].includes(row.key),
);

describe('quota set view: the field set per microversion', () => {
  describe('of a project', () => {
    itShowsTheTableKeys(PROJECT_QUOTA_SET, (ctx) => quotaSetView(() => 10, ctx, 'p1').quota_set, {
      callers: [false],
    });
  });
  describe('of a share type', () => {
    itShowsTheTableKeys(
      SHARE_TYPE_QUOTA_SET,
      (ctx) => quotaSetView(() => 10, ctx, 'p1', true).quota_set,
      { callers: [false] },
    );
  });

  it('has no id when no project is given (the update answer, a Manila quirk kept)', () => {
    expect(quotaSetView(() => 10, viewContext('2.7')).quota_set).not.toHaveProperty('id');
  });

  it('shows each value as the caller computes it (limits, or the detail triples)', () => {
    const detail = quotaSetView(
      (r) => ({ limit: r === 'shares' ? 50 : -1, in_use: 0, reserved: 0 }),
      viewContext('2.25'),
      'p1',
    );
    expect(detail.quota_set.shares).toEqual({ limit: 50, in_use: 0, reserved: 0 });
  });
});
