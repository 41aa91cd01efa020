import type { RuleDefinition } from '../rule-definition.js';
import {
  ADMIN,
  ADMIN_OR_PROJECT_MEMBER,
  ADMIN_OR_PROJECT_READER,
  LEGACY_ADMIN_API,
  LEGACY_DEFAULT,
} from './personas.js';

/** Manila 15.1's manila/policies/share_replica.py. */
export const SHARE_REPLICA_RULES: readonly RuleDefinition[] = [
  {
    name: 'share_replica:create',
    check: ADMIN_OR_PROJECT_MEMBER,
    legacyCheck: LEGACY_DEFAULT,
    description: 'Create share replica.',
    operations: [{ method: 'POST', path: '/share-replicas' }],
  },
  {
    name: 'share_replica:get_all',
    check: ADMIN_OR_PROJECT_READER,
    legacyCheck: LEGACY_DEFAULT,
    description: 'Get all share replicas.',
    operations: [
      { method: 'GET', path: '/share-replicas' },
      { method: 'GET', path: '/share-replicas/detail' },
      { method: 'GET', path: '/share-replicas/detail?share_id={share_id}' },
    ],
  },
  {
    name: 'share_replica:show',
    check: ADMIN_OR_PROJECT_READER,
    legacyCheck: LEGACY_DEFAULT,
    description: 'Get details of a share replica.',
    operations: [{ method: 'GET', path: '/share-replicas/{share_replica_id}' }],
  },
  {
    name: 'share_replica:delete',
    check: ADMIN_OR_PROJECT_MEMBER,
    legacyCheck: LEGACY_DEFAULT,
    description: 'Delete a share replica.',
    operations: [{ method: 'DELETE', path: '/share-replicas/{share_replica_id}' }],
  },
  {
    name: 'share_replica:force_delete',
    check: ADMIN,
    legacyCheck: LEGACY_ADMIN_API,
    description: 'Force delete a share replica.',
    operations: [{ method: 'POST', path: '/share-replicas/{share_replica_id}/action' }],
  },
  {
    name: 'share_replica:promote',
    check: ADMIN_OR_PROJECT_MEMBER,
    legacyCheck: LEGACY_DEFAULT,
    description: 'Promote a non-active share replica to active.',
    operations: [{ method: 'POST', path: '/share-replicas/{share_replica_id}/action' }],
  },
  {
    name: 'share_replica:resync',
    check: ADMIN,
    legacyCheck: LEGACY_ADMIN_API,
    description: 'Resync a share replica that is out of sync.',
    operations: [{ method: 'POST', path: '/share-replicas/{share_replica_id}/action' }],
  },
  {
    name: 'share_replica:reset_replica_state',
    check: ADMIN,
    legacyCheck: LEGACY_ADMIN_API,
    description: "Reset share replica's replica_state attribute.",
    operations: [{ method: 'POST', path: '/share-replicas/{share_replica_id}/action' }],
  },
  {
    name: 'share_replica:reset_status',
    check: ADMIN,
    legacyCheck: LEGACY_ADMIN_API,
    description: "Reset share replica's status.",
    operations: [{ method: 'POST', path: '/share-replicas/{share_replica_id}/action' }],
  },
];
