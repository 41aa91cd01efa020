import type { RuleDefinition } from '../rule-definition.js';
import { ADMIN, LEGACY_ADMIN_API } from './personas.js';

/** Manila 15.1's manila/policies/share_types_extra_spec.py. */
export const SHARE_TYPES_EXTRA_SPEC_RULES: readonly RuleDefinition[] = [
  {
    name: 'share_types_extra_spec:create',
    check: ADMIN,
    legacyCheck: LEGACY_ADMIN_API,
    description: 'Create share type extra spec.',
    operations: [{ method: 'POST', path: '/types/{share_type_id}/extra_specs' }],
  },
  {
    name: 'share_types_extra_spec:show',
    check: ADMIN,
    legacyCheck: LEGACY_ADMIN_API,
    description: 'Get share type extra specs of a given share type.',
    operations: [{ method: 'GET', path: '/types/{share_type_id}/extra_specs' }],
  },
  {
    name: 'share_types_extra_spec:index',
    check: ADMIN,
    legacyCheck: LEGACY_ADMIN_API,
    description: 'Get details of a share type extra spec.',
    operations: [{ method: 'GET', path: '/types/{share_type_id}/extra_specs/{extra_spec_id}' }],
  },
  {
    name: 'share_types_extra_spec:update',
    check: ADMIN,
    legacyCheck: LEGACY_ADMIN_API,
    description: 'Update share type extra spec.',
    operations: [{ method: 'PUT', path: '/types/{share_type_id}/extra_specs' }],
  },
  {
    name: 'share_types_extra_spec:delete',
    check: ADMIN,
    legacyCheck: LEGACY_ADMIN_API,
    description: 'Delete share type extra spec.',
    operations: [{ method: 'DELETE', path: '/types/{share_type_id}/extra_specs/{key}' }],
  },
];
