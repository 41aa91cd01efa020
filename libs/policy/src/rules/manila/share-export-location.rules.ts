import type { RuleDefinition } from '../rule-definition.js';
import { ADMIN_OR_PROJECT_READER, LEGACY_DEFAULT } from './personas.js';

/** Manila 15.1's manila/policies/share_export_location.py. */
export const SHARE_EXPORT_LOCATION_RULES: readonly RuleDefinition[] = [
  {
    name: 'share_export_location:index',
    check: ADMIN_OR_PROJECT_READER,
    legacyCheck: LEGACY_DEFAULT,
    description: 'Get all export locations of a given share.',
    operations: [{ method: 'GET', path: '/shares/{share_id}/export_locations' }],
  },
  {
    name: 'share_export_location:show',
    check: ADMIN_OR_PROJECT_READER,
    legacyCheck: LEGACY_DEFAULT,
    description: 'Get details about the requested export location.',
    operations: [
      { method: 'GET', path: '/shares/{share_id}/export_locations/{export_location_id}' },
    ],
  },
];
