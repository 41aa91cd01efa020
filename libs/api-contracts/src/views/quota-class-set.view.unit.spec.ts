import { quotaClassSetView } from './quota-class-set.view.js';
import { type FieldRow, itShowsTheTableKeys } from './test-support/view-context.js';

/** Manila's quota class set (`api/views/quota_class_sets.py`), as shown. */
const QUOTA_CLASS_SET: readonly FieldRow[] = [
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

describe('quota class set view: the field set per microversion', () => {
  describe('as shown', () => {
    itShowsTheTableKeys(
      QUOTA_CLASS_SET,
      (ctx) => quotaClassSetView(() => 10, ctx, 'default').quota_class_set,
      { callers: [false] },
    );
  });
  describe('as an update answers it (no id, as in Manila)', () => {
    itShowsTheTableKeys(
      QUOTA_CLASS_SET.filter((row) => row.key !== 'id'),
      (ctx) => quotaClassSetView(() => 10, ctx).quota_class_set,
      { callers: [false] },
    );
  });
});
