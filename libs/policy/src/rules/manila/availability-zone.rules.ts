import type { RuleDefinition } from '../rule-definition.js';
import { ADMIN_OR_PROJECT_READER, LEGACY_DEFAULT } from './personas.js';

/** Manila 15.1's manila/policies/availability_zone.py. */
export const AVAILABILITY_ZONE_RULES: readonly RuleDefinition[] = [
  {
    name: 'availability_zone:index',
    check: ADMIN_OR_PROJECT_READER,
    legacyCheck: LEGACY_DEFAULT,
    description: 'Get all storage availability zones.',
    operations: [
      { method: 'GET', path: '/os-availability-zone' },
      { method: 'GET', path: '/availability-zone' },
    ],
  },
];
