import type { ExportLocationDocument, ShareInstanceDocument } from '#hawser/projections';
import {
  exportingInstances,
  exportLocationDetailView,
  exportLocationView,
  visibleExportLocations,
} from './export-location.view.js';
import {
  ALL_VERSIONS,
  type FieldRow,
  itShowsTheTableKeys,
  keysOf,
  viewContext,
} from './test-support/view-context.js';

/** Manila's export location summary, reference 1.4 (`api/views/export_locations.py`). */
const EXPORT_LOCATION: readonly FieldRow[] = [
  { key: 'id' },
  { key: 'path' },
  { key: 'preferred', from: '2.14' },
  { key: 'share_instance_id', adminOnly: true },
  { key: 'is_admin_only', adminOnly: true },
];

const location: ExportLocationDocument = {
  id: 'el-1',
  path: '10.0.0.1:/shares/data',
  preferred: true,
  is_admin_only: false,
  share_instance_id: 'i1',
};
const adminOnly: ExportLocationDocument = {
  ...location,
  id: 'el-2',
  path: '192.168.0.1:/shares/data',
  preferred: false,
  is_admin_only: true,
};

describe('export location view: the field set per microversion', () => {
  // The API exists from 2.9; the view is the same below, where nothing calls it.
  itShowsTheTableKeys(EXPORT_LOCATION, (ctx) => exportLocationView(location, ctx), {
    versions: ALL_VERSIONS.slice(9),
  });

  it('gives preferred as a boolean and the admin fields as stored', () => {
    expect(exportLocationView(adminOnly, viewContext('2.14', { isAdmin: true }))).toEqual({
      id: 'el-2',
      path: '192.168.0.1:/shares/data',
      preferred: false,
      share_instance_id: 'i1',
      is_admin_only: true,
    });
  });
});

describe('export locations a caller may list', () => {
  it('hides admin-only locations from non-admins and shows them to admins', () => {
    expect(visibleExportLocations([location, adminOnly], viewContext('2.9'))).toEqual([location]);
    expect(
      visibleExportLocations([location, adminOnly], viewContext('2.9', { isAdmin: true })),
    ).toEqual([location, adminOnly]);
  });
});

const instance = (id: string, status: string, replicaState: string | null) =>
  ({
    id,
    status,
    replica_state: replicaState,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:05.000Z',
    export_locations: [{ ...location, id: `el-${id}`, share_instance_id: id }],
  }) as Partial<ShareInstanceDocument> as ShareInstanceDocument;

describe('export location detail view', () => {
  it.each([
    ['2.9', false, ['created_at', 'id', 'path', 'updated_at']],
    ['2.14', false, ['created_at', 'id', 'path', 'preferred', 'updated_at']],
    [
      '2.14',
      true,
      ['created_at', 'id', 'is_admin_only', 'path', 'preferred', 'share_instance_id', 'updated_at'],
    ],
  ])('at %s (admin: %s) is the summary plus created_at and updated_at', (v, isAdmin, keys) => {
    const holder = instance('i1', 'available', null);
    const view = exportLocationDetailView(location, holder, viewContext(v, { isAdmin }));
    expect(keysOf(view)).toEqual(keys);
    // Manila's format: six microsecond digits, no trailing Z.
    expect(view).toMatchObject({
      created_at: '2026-01-01T00:00:00.000000',
      updated_at: '2026-01-01T00:00:05.000000',
    });
  });
});

describe("the instances a share's export-location listing shows", () => {
  const instances = [
    instance('active', 'available', 'active'),
    instance('secondary', 'available', 'in_sync'),
    instance('plain', 'extending', null),
    instance('destination', 'migrating_to', null),
  ];
  const ids = (version: string) =>
    exportingInstances(instances, viewContext(version)).map((i) => i.id);

  it('every instance but a migration destination up to 2.46, whatever its status', () => {
    expect(ids('2.46')).toEqual(['active', 'secondary', 'plain']);
  });

  it('no secondary replica from 2.47', () => {
    expect(ids('2.47')).toEqual(['active', 'plain']);
  });
});
