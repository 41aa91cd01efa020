import type { RuleDefinition } from '../rule-definition.js';
import { ADMIN, LEGACY_ADMIN_API } from './personas.js';

/** Manila 15.1's manila/policies/share_instance.py. */
export const SHARE_INSTANCE_RULES: readonly RuleDefinition[] = [
  {
    name: 'share_instance:index',
    check: ADMIN,
    legacyCheck: LEGACY_ADMIN_API,
    description: 'Get all share instances.',
    operations: [
      { method: 'GET', path: '/share_instances' },
      { method: 'GET', path: '/share_instances?{query}' },
    ],
  },
  {
    name: 'share_instance:show',
    check: ADMIN,
    legacyCheck: LEGACY_ADMIN_API,
    description: 'Get details of a share instance.',
    operations: [{ method: 'GET', path: '/share_instances/{share_instance_id}' }],
  },
  {
    name: 'share_instance:force_delete',
    check: ADMIN,
    legacyCheck: LEGACY_ADMIN_API,
    description: 'Force delete a share instance.',
    operations: [{ method: 'POST', path: '/share_instances/{share_instance_id}/action' }],
  },
  {
    name: 'share_instance:reset_status',
    check: ADMIN,
    legacyCheck: LEGACY_ADMIN_API,
    description: "Reset share instance's status.",
    operations: [{ method: 'POST', path: '/share_instances/{share_instance_id}/action' }],
  },
];
