import type { RuleDefinition } from '../rule-definition.js';
import { ADMIN_OR_PROJECT_MEMBER, LEGACY_DEFAULT } from './personas.js';

/** Manila 15.1's manila/policies/share_access_metadata.py. */
export const SHARE_ACCESS_METADATA_RULES: readonly RuleDefinition[] = [
  {
    name: 'share_access_metadata:update',
    check: ADMIN_OR_PROJECT_MEMBER,
    legacyCheck: LEGACY_DEFAULT,
    description: 'Set metadata for a share access rule.',
    operations: [{ method: 'PUT', path: '/share-access-rules/{share_access_id}/metadata' }],
  },
  {
    name: 'share_access_metadata:delete',
    check: ADMIN_OR_PROJECT_MEMBER,
    legacyCheck: LEGACY_DEFAULT,
    description: 'Delete metadata for a share access rule.',
    operations: [
      { method: 'DELETE', path: '/share-access-rules/{share_access_id}/metadata/{key}' },
    ],
  },
];
