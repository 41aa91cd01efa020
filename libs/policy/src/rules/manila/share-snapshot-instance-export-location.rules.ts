import type { RuleDefinition } from '../rule-definition.js';
import { ADMIN, LEGACY_ADMIN_API } from './personas.js';

/** Manila 15.1's manila/policies/share_snapshot_instance_export_location.py. */
export const SHARE_SNAPSHOT_INSTANCE_EXPORT_LOCATION_RULES: readonly RuleDefinition[] = [
  {
    name: 'share_snapshot_instance_export_location:index',
    check: ADMIN,
    legacyCheck: LEGACY_ADMIN_API,
    description: 'List export locations of a share snapshot instance.',
    operations: [
      { method: 'GET', path: '/snapshot-instances/{snapshot_instance_id}/export-locations' },
    ],
  },
  {
    name: 'share_snapshot_instance_export_location:show',
    check: ADMIN,
    legacyCheck: LEGACY_ADMIN_API,
    description: 'Show details of a specified export location of a share snapshot instance.',
    operations: [
      {
        method: 'GET',
        path: '/snapshot-instances/{snapshot_instance_id}/export-locations/{export_location_id}',
      },
    ],
  },
];
