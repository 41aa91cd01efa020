import type { RuleDefinition } from '../rule-definition.js';
import { ADMIN_OR_PROJECT_READER, LEGACY_DEFAULT } from './personas.js';

/** Manila 15.1's manila/policies/share_access.py. */
export const SHARE_ACCESS_RULES: readonly RuleDefinition[] = [
  {
    name: 'share_access_rule:get',
    check: ADMIN_OR_PROJECT_READER,
    legacyCheck: LEGACY_DEFAULT,
    description: 'Get details of a share access rule.',
    operations: [{ method: 'GET', path: '/share-access-rules/{share_access_id}' }],
  },
  {
    name: 'share_access_rule:index',
    check: ADMIN_OR_PROJECT_READER,
    legacyCheck: LEGACY_DEFAULT,
    description: 'List access rules of a given share.',
    operations: [
      { method: 'GET', path: '/share-access-rules?share_id={share_id}&key1=value1&key2=value2' },
    ],
  },
];
