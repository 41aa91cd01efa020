import type { RuleDefinition } from '../rule-definition.js';
import { ADMIN, ADMIN_OR_PROJECT_READER, LEGACY_ADMIN_API, LEGACY_DEFAULT } from './personas.js';

/** Manila 15.1's manila/policies/quota_class_set.py. */
export const QUOTA_CLASS_SET_RULES: readonly RuleDefinition[] = [
  {
    name: 'quota_class_set:update',
    check: ADMIN,
    legacyCheck: LEGACY_ADMIN_API,
    description: 'Update quota class.',
    operations: [
      { method: 'PUT', path: '/quota-class-sets/{class_name}' },
      { method: 'PUT', path: '/os-quota-class-sets/{class_name}' },
    ],
  },
  {
    name: 'quota_class_set:show',
    check: ADMIN_OR_PROJECT_READER,
    legacyCheck: LEGACY_DEFAULT,
    description: 'Get quota class.',
    operations: [
      { method: 'GET', path: '/quota-class-sets/{class_name}' },
      { method: 'GET', path: '/os-quota-class-sets/{class_name}' },
    ],
  },
];
