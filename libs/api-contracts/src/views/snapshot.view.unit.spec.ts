import type { SnapshotDocument } from '#hawser/projections';
import { snapshotDetailView, snapshotSummaryView } from './snapshot.view.js';
import {
  type FieldRow,
  itShowsTheTableKeys,
  keysOf,
  viewContext,
} from './test-support/view-context.js';

/** Manila's snapshot detail view, reference 1.5 (`api/views/share_snapshots.py`). */
const SNAPSHOT_DETAIL: readonly FieldRow[] = [
  { key: 'id' },
  { key: 'share_id' },
  { key: 'share_size' },
  { key: 'created_at' },
  { key: 'status' },
  { key: 'name' },
  { key: 'description' },
  { key: 'size' },
  { key: 'share_proto' },
  { key: 'links' },
  { key: 'provider_location', from: '2.12', adminOnly: true },
  { key: 'user_id', from: '2.17' },
  { key: 'project_id', from: '2.17' },
  { key: 'metadata', from: '2.73' },
];

const snapshot = {
  id: 'snap-1',
  revision: 7,
  share_id: 's1',
  share_size: 2,
  share_proto: 'NFS',
  size: 2,
  status: 'available',
  progress: '100%',
  provider_location: '/srv/snapshots/snap-1',
  name: 'nightly',
  description: null,
  project_id: 'p1',
  user_id: 'u1',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:01.000Z',
  instances: [],
} satisfies SnapshotDocument;

describe('snapshot detail view: the field set per microversion', () => {
  itShowsTheTableKeys(SNAPSHOT_DETAIL, (ctx) => snapshotDetailView(snapshot, ctx));

  it('shows the metadata from 2.73, an empty map for documents written before it existed', () => {
    const tagged = { ...snapshot, metadata: { purpose: 'backup' } };
    expect(snapshotDetailView(tagged, viewContext('2.73')).metadata).toEqual({ purpose: 'backup' });
    expect(snapshotDetailView(snapshot, viewContext('2.73')).metadata).toEqual({});
  });

  it('has no progress at snapshot level', () => {
    expect(snapshotDetailView(snapshot, viewContext('2.73', { isAdmin: true }))).not.toHaveProperty(
      'progress',
    );
  });
});

describe('snapshot summary view', () => {
  it.each(['2.0', '2.17', '2.73'])('at %s is {id, name, links}', (version) => {
    expect(keysOf(snapshotSummaryView(snapshot, viewContext(version)))).toEqual([
      'id',
      'links',
      'name',
    ]);
    expect(snapshotSummaryView(snapshot, viewContext(version)).links[0]).toEqual({
      rel: 'self',
      href: 'http://hawser:8786/v2/snapshots/snap-1',
    });
  });
});
