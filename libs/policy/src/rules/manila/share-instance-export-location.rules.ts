import type { RuleDefinition } from '../rule-definition.js';
import { ADMIN, LEGACY_ADMIN_API } from './personas.js';

/** Manila 15.1's manila/policies/share_instance_export_location.py. */
export const SHARE_INSTANCE_EXPORT_LOCATION_RULES: readonly RuleDefinition[] = [
  {
    name: 'share_instance_export_location:index',
    check: ADMIN,
    legacyCheck: LEGACY_ADMIN_API,
    description: 'Return data about the requested export location.',
    operations: [{ method: 'POST', path: '/share_instances/{share_instance_id}/export_locations' }],
  },
  {
    name: 'share_instance_export_location:show',
    check: ADMIN,
    legacyCheck: LEGACY_ADMIN_API,
    description: 'Return data about the requested export location.',
    operations: [
      {
        method: 'GET',
        path: '/share_instances/{share_instance_id}/export_locations/{export_location_id}',
      },
    ],
  },
];
