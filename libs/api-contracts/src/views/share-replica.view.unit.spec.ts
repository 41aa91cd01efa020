import type { ShareInstanceDocument } from '#hawser/projections';
import {
  replicaExportLocationView,
  shareReplicaDetailView,
  shareReplicaSummaryView,
} from './share-replica.view.js';
import {
  ALL_VERSIONS,
  expectedKeys,
  keysOf,
  viewContext,
  type FieldRow,
} from './test-support/view-context.js';

/** Manila's share replica detail, reference 1.3 (`api/views/share_replicas.py`). */
const SHARE_REPLICA: readonly FieldRow[] = [
  { key: 'id' },
  { key: 'share_id' },
  { key: 'availability_zone' },
  { key: 'created_at' },
  { key: 'status' },
  { key: 'share_network_id' },
  { key: 'replica_state' },
  { key: 'updated_at' },
  { key: 'share_server_id', adminOnly: true },
  { key: 'host', adminOnly: true },
  { key: 'cast_rules_to_readonly', from: '2.30', adminOnly: true },
];

const replica = {
  id: 'r1',
  revision: 7,
  share_id: 's1',
  project_id: 'p1',
  status: 'available',
  host: 'node2@b2#pool1',
  availability_zone: 'az-2',
  replica_state: 'in_sync',
  progress: '100%',
  share_type_id: 'type-id',
  share_network_id: null,
  share_server_id: null,
  access_rules_status: 'active',
  cast_rules_to_readonly: true,
  export_locations: [
    {
      id: 'el-1',
      path: '10.0.0.2:/r1',
      preferred: true,
      is_admin_only: false,
      share_instance_id: 'r1',
    },
  ],
  pending_operation: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:01.000Z',
} satisfies ShareInstanceDocument;

// The replicas API starts at 2.11.
const REPLICA_VERSIONS = ALL_VERSIONS.filter((v) => Number(v.split('.')[1]) >= 11);

describe('share replica view: the field set per microversion', () => {
  it.each(REPLICA_VERSIONS)('at %s shows exactly the reference keys, admin or not', (version) => {
    for (const isAdmin of [true, false]) {
      expect(keysOf(shareReplicaDetailView(replica, viewContext(version, { isAdmin })))).toEqual(
        expectedKeys(SHARE_REPLICA, version, isAdmin),
      );
    }
  });

  it('the summary is id, share_id, status and replica_state', () => {
    expect(shareReplicaSummaryView(replica)).toEqual({
      id: 'r1',
      share_id: 's1',
      status: 'available',
      replica_state: 'in_sync',
    });
  });
});

describe('replica export location view', () => {
  const location = replica.export_locations[0]!;

  it('adds the replica state and zone to the summary; admins see the owning instance', () => {
    expect(replicaExportLocationView(location, replica, viewContext('2.47'), false)).toEqual({
      id: 'el-1',
      path: '10.0.0.2:/r1',
      preferred: true,
      replica_state: 'in_sync',
      availability_zone: 'az-2',
    });
    expect(
      keysOf(
        replicaExportLocationView(location, replica, viewContext('2.47', { isAdmin: true }), true),
      ),
    ).toEqual(
      [
        'availability_zone',
        'created_at',
        'id',
        'is_admin_only',
        'path',
        'preferred',
        'replica_state',
        'share_instance_id',
        'updated_at',
      ].sort(),
    );
  });
});
