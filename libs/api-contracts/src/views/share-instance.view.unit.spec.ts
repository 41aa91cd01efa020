import type { ShareInstanceDocument } from '#hawser/projections';
import { shareInstanceView } from './share-instance.view.js';
import { type FieldRow, itShowsTheTableKeys, viewContext } from './test-support/view-context.js';

/** Manila's share instance view, reference 1.2 (`api/views/share_instance.py`). */
const SHARE_INSTANCE: readonly FieldRow[] = [
  { key: 'id' },
  { key: 'share_id' },
  { key: 'availability_zone' },
  { key: 'created_at' },
  { key: 'host' },
  { key: 'status' },
  { key: 'share_network_id' },
  { key: 'share_server_id' },
  { key: 'export_location', until: '2.8' },
  { key: 'export_locations', until: '2.8' },
  { key: 'access_rules_status', from: '2.10' },
  { key: 'replica_state', from: '2.11' },
  { key: 'share_type_id', from: '2.22' },
  { key: 'cast_rules_to_readonly', from: '2.30' },
  { key: 'progress', from: '2.54' },
  { key: 'updated_at', from: '2.71' },
];

const instance = {
  id: 'i1',
  revision: 3,
  share_id: 's1',
  project_id: 'p1',
  status: 'available',
  host: 'node1@local#pool0',
  availability_zone: 'nova',
  replica_state: null,
  progress: '100%',
  share_type_id: 'type-id',
  share_network_id: null,
  share_server_id: null,
  access_rules_status: 'syncing',
  cast_rules_to_readonly: false,
  export_locations: [
    {
      id: 'el-1',
      path: '10.0.0.1:/a',
      preferred: true,
      is_admin_only: false,
      share_instance_id: 'i1',
    },
  ],
  pending_operation: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:01.000Z',
} satisfies ShareInstanceDocument;

describe('share instance view: the field set per microversion', () => {
  // The instance API is admin-only; the view has no admin-only fields of its own.
  itShowsTheTableKeys(SHARE_INSTANCE, (ctx) => shareInstanceView(instance, ctx), {
    callers: [true],
  });
});

describe('share instance view: versioned values', () => {
  const at = (version: string, doc: ShareInstanceDocument = instance) =>
    shareInstanceView(doc, viewContext(version, { isAdmin: true }));

  it('shows the legacy export paths until 2.8', () => {
    expect(at('2.8')).toMatchObject({
      export_location: '10.0.0.1:/a',
      export_locations: ['10.0.0.1:/a'],
    });
  });

  it('shows access_rules_status as stored (syncing is not translated for instances)', () => {
    expect(at('2.10').access_rules_status).toBe('syncing');
  });

  it('shows creating_from_snapshot as creating up to 2.53', () => {
    const cloning = { ...instance, status: 'creating_from_snapshot' };
    expect(at('2.53', cloning).status).toBe('creating');
    expect(at('2.54', cloning).status).toBe('creating_from_snapshot');
  });
});
