import type { RuleDefinition } from '../rule-definition.js';
import { ADMIN_OR_PROJECT_READER, LEGACY_DEFAULT } from './personas.js';

/** Manila 15.1's manila/policies/share_snapshot_export_location.py. */
export const SHARE_SNAPSHOT_EXPORT_LOCATION_RULES: readonly RuleDefinition[] = [
  {
    name: 'share_snapshot_export_location:index',
    check: ADMIN_OR_PROJECT_READER,
    legacyCheck: LEGACY_DEFAULT,
    description: 'List export locations of a share snapshot.',
    operations: [{ method: 'GET', path: '/snapshots/{snapshot_id}/export-locations/' }],
  },
  {
    name: 'share_snapshot_export_location:show',
    check: ADMIN_OR_PROJECT_READER,
    legacyCheck: LEGACY_DEFAULT,
    description: 'Get details of a specified export location of a share snapshot.',
    operations: [
      { method: 'GET', path: '/snapshots/{snapshot_id}/export-locations/{export_location_id}' },
    ],
  },
];
