import type { RuleDefinition } from '../rule-definition.js';
import { ADMIN, ADMIN_OR_PROJECT_READER, LEGACY_ADMIN_API, LEGACY_DEFAULT } from './personas.js';

/** Manila 15.1's manila/policies/quota_set.py. */
export const QUOTA_SET_RULES: readonly RuleDefinition[] = [
  {
    name: 'quota_set:update',
    check: ADMIN,
    legacyCheck: LEGACY_ADMIN_API,
    description: 'Update the quotas for a project/user and/or share type.',
    operations: [
      { method: 'PUT', path: '/quota-sets/{project_id}' },
      { method: 'PUT', path: '/quota-sets/{project_id}?user_id={user_id}' },
      { method: 'PUT', path: '/quota-sets/{project_id}?share_type={share_type_id}' },
      { method: 'PUT', path: '/os-quota-sets/{project_id}' },
      { method: 'PUT', path: '/os-quota-sets/{project_id}?user_id={user_id}' },
    ],
  },
  {
    name: 'quota_set:show',
    check: ADMIN_OR_PROJECT_READER,
    legacyCheck: LEGACY_DEFAULT,
    description: 'List the quotas for a project/user.',
    operations: [
      { method: 'GET', path: '/quota-sets/{project_id}/defaults' },
      { method: 'GET', path: '/os-quota-sets/{project_id}/defaults' },
    ],
  },
  {
    name: 'quota_set:delete',
    check: ADMIN,
    legacyCheck: LEGACY_ADMIN_API,
    description:
      'Delete quota for a project/user or project/share-type. The quota will revert back to default (Admin only).',
    operations: [
      { method: 'DELETE', path: '/quota-sets/{project_id}' },
      { method: 'DELETE', path: '/quota-sets/{project_id}?user_id={user_id}' },
      { method: 'DELETE', path: '/quota-sets/{project_id}?share_type={share_type_id}' },
      { method: 'DELETE', path: '/os-quota-sets/{project_id}' },
      { method: 'DELETE', path: '/os-quota-sets/{project_id}?user_id={user_id}' },
    ],
  },
];
