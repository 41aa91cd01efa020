import type { RuleDefinition } from '../rule-definition.js';
import { ADMIN, LEGACY_ADMIN_API } from './personas.js';

/** Manila 15.1's manila/policies/service.py. */
export const SERVICE_RULES: readonly RuleDefinition[] = [
  {
    name: 'service:index',
    check: ADMIN,
    legacyCheck: LEGACY_ADMIN_API,
    description: 'Return a list of all running services.',
    operations: [
      { method: 'GET', path: '/os-services?{query}' },
      { method: 'GET', path: '/services?{query}' },
    ],
  },
  {
    name: 'service:update',
    check: ADMIN,
    legacyCheck: LEGACY_ADMIN_API,
    description: 'Enable/Disable scheduling for a service.',
    operations: [
      { method: 'PUT', path: '/os-services/disable' },
      { method: 'PUT', path: '/os-services/enable' },
      { method: 'PUT', path: '/services/disable' },
      { method: 'PUT', path: '/services/enable' },
    ],
  },
];
