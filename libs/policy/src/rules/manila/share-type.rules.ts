import type { RuleDefinition } from '../rule-definition.js';
import { ADMIN, ADMIN_OR_PROJECT_READER, LEGACY_ADMIN_API, LEGACY_DEFAULT } from './personas.js';

/** Manila 15.1's manila/policies/share_type.py. */
export const SHARE_TYPE_RULES: readonly RuleDefinition[] = [
  {
    name: 'share_type:create',
    check: ADMIN,
    legacyCheck: LEGACY_ADMIN_API,
    description: 'Create share type.',
    operations: [{ method: 'POST', path: '/types' }],
  },
  {
    name: 'share_type:update',
    check: ADMIN,
    legacyCheck: LEGACY_ADMIN_API,
    description: 'Update share type.',
    operations: [{ method: 'PUT', path: '/types/{share_type_id}' }],
  },
  {
    name: 'share_type:show',
    check: ADMIN_OR_PROJECT_READER,
    legacyCheck: LEGACY_DEFAULT,
    description: 'Get share type.',
    operations: [{ method: 'GET', path: '/types/{share_type_id}' }],
  },
  {
    name: 'share_type:index',
    check: ADMIN_OR_PROJECT_READER,
    legacyCheck: LEGACY_DEFAULT,
    description: 'List share types.',
    operations: [{ method: 'GET', path: '/types?is_public=all' }],
  },
  {
    name: 'share_type:default',
    check: ADMIN_OR_PROJECT_READER,
    legacyCheck: LEGACY_DEFAULT,
    description: 'Get default share type.',
    operations: [{ method: 'GET', path: '/types/default' }],
  },
  {
    name: 'share_type:delete',
    check: ADMIN,
    legacyCheck: LEGACY_ADMIN_API,
    description: 'Delete share type.',
    operations: [{ method: 'DELETE', path: '/types/{share_type_id}' }],
  },
  {
    name: 'share_type:list_project_access',
    check: ADMIN,
    legacyCheck: LEGACY_ADMIN_API,
    description: 'List share type project access.',
    operations: [{ method: 'GET', path: '/types/{share_type_id}' }],
  },
  {
    name: 'share_type:add_project_access',
    check: ADMIN,
    legacyCheck: LEGACY_ADMIN_API,
    description: 'Add share type to project.',
    operations: [{ method: 'POST', path: '/types/{share_type_id}/action' }],
  },
  {
    name: 'share_type:remove_project_access',
    check: ADMIN,
    legacyCheck: LEGACY_ADMIN_API,
    description: 'Remove share type from project.',
    operations: [{ method: 'POST', path: '/types/{share_type_id}/action' }],
  },
];
