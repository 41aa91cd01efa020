import {
  snapshotAccessView,
  snapshotExportLocationsView,
  snapshotExportLocationView,
  type SnapshotExportLocationDocument,
} from './snapshot-export-location.view.js';
import {
  ALL_VERSIONS,
  type FieldRow,
  itShowsTheTableKeys,
  keysOf,
  viewContext,
} from './test-support/view-context.js';

/** Manila's api/views/share_snapshot_export_locations.py: the same at every microversion. */
const SUMMARY: readonly FieldRow[] = [
  { key: 'id' },
  { key: 'path' },
  { key: 'links' },
  { key: 'share_snapshot_instance_id', adminOnly: true },
  { key: 'is_admin_only', adminOnly: true },
];
const DETAIL: readonly FieldRow[] = [...SUMMARY, { key: 'created_at' }, { key: 'updated_at' }];
// The routes exist from 2.32.
const MOUNTABLE_VERSIONS = ALL_VERSIONS.slice(32);

const served: SnapshotExportLocationDocument = {
  id: 'el-1',
  path: '127.0.0.1:/snapshot-si1',
  is_admin_only: false,
  share_snapshot_instance_id: 'si1',
  created_at: '2026-11-22T10:00:00.123Z',
  updated_at: '2026-11-22T10:05:00.000Z',
};
const directory: SnapshotExportLocationDocument = {
  ...served,
  id: 'el-2',
  path: '/srv/pool/snapshots/si1',
  is_admin_only: true,
};

describe('snapshot export location views (2.32+): the field set per microversion and caller', () => {
  describe('summary', () => {
    itShowsTheTableKeys(SUMMARY, (ctx) => snapshotExportLocationView(served, ctx), {
      versions: MOUNTABLE_VERSIONS,
    });
  });
  describe('detail', () => {
    itShowsTheTableKeys(DETAIL, (ctx) => snapshotExportLocationView(served, ctx, true), {
      versions: MOUNTABLE_VERSIONS,
    });
  });

  it("prints the detail's times as Manila prints datetimes and links to the location", () => {
    const view = snapshotExportLocationView(served, viewContext('2.32'), true);
    expect(view).toMatchObject({
      created_at: '2026-11-22T10:00:00.123000',
      updated_at: '2026-11-22T10:05:00.000000',
      links: [
        { rel: 'self', href: 'http://hawser:8786/v2/share_snapshot_export_locations/el-1' },
        { rel: 'bookmark', href: 'http://hawser:8786/share_snapshot_export_locations/el-1' },
      ],
    });
  });

  it('lists admin-only locations to admins only', () => {
    const ids = (isAdmin: boolean) =>
      snapshotExportLocationsView(
        [served, directory],
        viewContext('2.32', { isAdmin }),
      ).share_snapshot_export_locations.map((l) => l.id);
    expect(ids(false)).toEqual(['el-1']);
    expect(ids(true)).toEqual(['el-1', 'el-2']);
  });
});

describe('snapshot access view (2.32+)', () => {
  it("is Manila's detail_access: id, access_type, access_to, state", () => {
    const view = snapshotAccessView({
      id: 'a1',
      access_type: 'ip',
      access_to: '10.0.0.1',
      state: 'queued_to_apply',
    });
    expect(keysOf(view)).toEqual(['access_to', 'access_type', 'id', 'state']);
  });
});
