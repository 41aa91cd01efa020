import type { ExportLocationDocument } from '#hawser/projections';
import { exportLocationView, visibleExportLocations } from './export-location.view.js';
import {
  ALL_VERSIONS,
  expectedKeys,
  keysOf,
  viewContext,
  type FieldRow,
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
  it.each(ALL_VERSIONS.slice(9).flatMap((v) => [[v, false] as const, [v, true] as const]))(
    'at %s (admin: %s) shows exactly the reference keys',
    (version, isAdmin) => {
      expect(keysOf(exportLocationView(location, viewContext(version, { isAdmin })))).toEqual(
        expectedKeys(EXPORT_LOCATION, version, isAdmin),
      );
    },
  );

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
