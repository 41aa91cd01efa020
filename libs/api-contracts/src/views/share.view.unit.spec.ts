import type { ShareDocument } from '#hawser/projections';
import { shareDetailView, shareSummaryView } from './share.view.js';
import {
  type FieldRow,
  itShowsTheTableKeys,
  keysOf,
  viewContext,
} from './test-support/view-context.js';

/** Manila's share detail view, reference 1.1 (`api/views/shares.py`). */
const SHARE_DETAIL: readonly FieldRow[] = [
  { key: 'id' },
  { key: 'size' },
  { key: 'availability_zone' },
  { key: 'created_at' },
  { key: 'status' },
  { key: 'name' },
  { key: 'description' },
  { key: 'project_id' },
  { key: 'snapshot_id' },
  { key: 'share_network_id' },
  { key: 'share_proto' },
  { key: 'metadata' },
  { key: 'share_type' },
  { key: 'volume_type' },
  { key: 'links' },
  { key: 'is_public' },
  { key: 'export_location', until: '2.8' },
  { key: 'export_locations', until: '2.8' },
  { key: 'snapshot_support', from: '2.2' },
  { key: 'task_state', from: '2.5' },
  { key: 'share_type_name', from: '2.6' },
  { key: 'access_rules_status', from: '2.10' },
  { key: 'replication_type', from: '2.11' },
  { key: 'has_replicas', from: '2.11' },
  { key: 'user_id', from: '2.16' },
  { key: 'create_share_from_snapshot_support', from: '2.24' },
  { key: 'revert_to_snapshot_support', from: '2.27' },
  { key: 'share_group_id', from: '2.31' },
  { key: 'source_share_group_snapshot_member_id', from: '2.31' },
  { key: 'mount_snapshot_support', from: '2.32' },
  { key: 'progress', from: '2.54' },
  { key: 'is_soft_deleted', from: '2.69' },
  { key: 'scheduled_to_be_deleted_at', from: '2.69' },
  { key: 'share_server_id', adminOnly: true },
  { key: 'host', adminOnly: true },
];

const share = {
  id: '0b1e8a52-6f3c-4d2a-9d59-3c1f0e2a7b10',
  revision: 4,
  name: 'data',
  description: 'team data',
  project_id: 'p1',
  user_id: 'u1',
  size: 1,
  share_proto: 'NFS',
  share_type_id: 'type-id',
  share_type_name: 'default',
  status: 'available',
  instance_statuses: ['available'],
  host: 'node1@local#pool0',
  availability_zone: 'nova',
  progress: '100%',
  is_public: false,
  metadata: { team: 'a' },
  snapshot_id: null,
  share_network_id: null,
  share_server_id: null,
  share_group_id: null,
  source_share_group_snapshot_member_id: null,
  task_state: null,
  access_rules_status: 'active',
  snapshot_support: true,
  create_share_from_snapshot_support: true,
  revert_to_snapshot_support: false,
  mount_snapshot_support: false,
  replication_type: null,
  has_replicas: false,
  export_locations: [
    {
      id: 'el-1',
      path: '10.0.0.1:/shares/data',
      preferred: true,
      is_admin_only: false,
      share_instance_id: 'i1',
    },
    {
      id: 'el-2',
      path: '10.0.0.2:/shares/data',
      preferred: false,
      is_admin_only: false,
      share_instance_id: 'i1',
    },
  ],
  is_soft_deleted: false,
  scheduled_to_be_deleted_at: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:01.000Z',
} satisfies ShareDocument;

describe('share detail view: the field set per microversion', () => {
  itShowsTheTableKeys(SHARE_DETAIL, (ctx) => shareDetailView(share, ctx));
});

describe('share detail view: versioned values', () => {
  const at = (version: string, doc: ShareDocument = share, isAdmin = false) =>
    shareDetailView(doc, viewContext(version, { isAdmin }));

  it('shows a share in the recycle bin and its deletion time from 2.69', () => {
    const binned = {
      ...share,
      is_soft_deleted: true,
      scheduled_to_be_deleted_at: '2026-01-08T00:00:00.000Z',
    };
    expect(at('2.69', binned)).toMatchObject({
      is_soft_deleted: true,
      scheduled_to_be_deleted_at: '2026-01-08T00:00:00.000Z',
    });
    expect(at('2.69')).toMatchObject({ is_soft_deleted: false, scheduled_to_be_deleted_at: null });
    expect(at('2.68', binned)).not.toHaveProperty('is_soft_deleted');
  });

  it('shows the legacy export paths until 2.8: the first one and the list', () => {
    expect(at('2.8')).toMatchObject({
      export_location: '10.0.0.1:/shares/data',
      export_locations: ['10.0.0.1:/shares/data', '10.0.0.2:/shares/data'],
    });
    expect(at('2.8', { ...share, export_locations: [] })).toMatchObject({
      export_location: null,
      export_locations: [],
    });
  });

  it('names the type in share_type until 2.5, then gives its id and share_type_name', () => {
    expect(at('2.5')).toMatchObject({ share_type: 'default', volume_type: 'default' });
    expect(at('2.6')).toMatchObject({
      share_type: 'type-id',
      share_type_name: 'default',
      volume_type: 'default',
    });
  });

  it('shows access_rules_status syncing as out_of_sync from 2.10 to 2.27', () => {
    const syncing = { ...share, access_rules_status: 'syncing' as const };
    expect(at('2.10', syncing).access_rules_status).toBe('out_of_sync');
    expect(at('2.27', syncing).access_rules_status).toBe('out_of_sync');
    expect(at('2.28', syncing).access_rules_status).toBe('syncing');
  });

  it('shows creating_from_snapshot as creating up to 2.53', () => {
    const cloning = { ...share, status: 'creating_from_snapshot' };
    expect(at('2.53', cloning).status).toBe('creating');
    expect(at('2.54', cloning).status).toBe('creating_from_snapshot');
  });

  it('gives admins the pool host string and the share server', () => {
    expect(at('2.73', share, true)).toMatchObject({
      host: 'node1@local#pool0',
      share_server_id: null,
    });
  });

  it('is never soft-deleted from 2.69: the recycle bin is not built', () => {
    expect(at('2.69')).toMatchObject({ is_soft_deleted: false, scheduled_to_be_deleted_at: null });
  });
});

describe('share summary view', () => {
  it.each(['2.0', '2.9', '2.54', '2.73'])('at %s is {id, name, links}', (version) => {
    expect(keysOf(shareSummaryView(share, viewContext(version)))).toEqual(['id', 'links', 'name']);
  });

  it('links carry the project id only when the request URL did', () => {
    expect(shareSummaryView(share, viewContext('2.73')).links).toEqual([
      { rel: 'self', href: `http://hawser:8786/v2/shares/${share.id}` },
      { rel: 'bookmark', href: `http://hawser:8786/shares/${share.id}` },
    ]);
    expect(shareSummaryView(share, viewContext('2.73', { urlProjectId: 'p1' })).links).toEqual([
      { rel: 'self', href: `http://hawser:8786/v2/p1/shares/${share.id}` },
      { rel: 'bookmark', href: `http://hawser:8786/p1/shares/${share.id}` },
    ]);
  });
});
