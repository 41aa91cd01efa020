import type { RuleDefinition } from '../rule-definition.js';
import {
  ADMIN,
  ADMIN_OR_PROJECT_MEMBER,
  ADMIN_OR_PROJECT_READER,
  LEGACY_ADMIN_API,
  LEGACY_DEFAULT,
} from './personas.js';

/** Manila 15.1's manila/policies/share_snapshot.py. */
export const SHARE_SNAPSHOT_RULES: readonly RuleDefinition[] = [
  {
    name: 'share_snapshot:get_snapshot',
    check: ADMIN_OR_PROJECT_READER,
    legacyCheck: LEGACY_DEFAULT,
    description: 'Get share snapshot.',
    operations: [{ method: 'GET', path: '/snapshots/{snapshot_id}' }],
  },
  {
    name: 'share_snapshot:get_all_snapshots',
    check: ADMIN_OR_PROJECT_READER,
    legacyCheck: LEGACY_DEFAULT,
    description: 'Get all share snapshots.',
    operations: [
      { method: 'GET', path: '/snapshots?{query}' },
      { method: 'GET', path: '/snapshots/detail?{query}' },
    ],
  },
  {
    name: 'share_snapshot:force_delete',
    check: ADMIN,
    legacyCheck: LEGACY_ADMIN_API,
    description: 'Force Delete a share snapshot.',
    operations: [{ method: 'DELETE', path: '/snapshots/{snapshot_id}' }],
  },
  {
    name: 'share_snapshot:manage_snapshot',
    check: ADMIN,
    legacyCheck: LEGACY_ADMIN_API,
    description: 'Manage share snapshot.',
    operations: [{ method: 'POST', path: '/snapshots/manage' }],
  },
  {
    name: 'share_snapshot:unmanage_snapshot',
    check: ADMIN,
    legacyCheck: LEGACY_ADMIN_API,
    description: 'Unmanage share snapshot.',
    operations: [{ method: 'POST', path: '/snapshots/{snapshot_id}/action' }],
  },
  {
    name: 'share_snapshot:reset_status',
    check: ADMIN,
    legacyCheck: LEGACY_ADMIN_API,
    description: 'Reset status.',
    operations: [{ method: 'POST', path: '/snapshots/{snapshot_id}/action' }],
  },
  {
    name: 'share_snapshot:access_list',
    check: ADMIN_OR_PROJECT_READER,
    legacyCheck: LEGACY_DEFAULT,
    description: 'List access rules of a share snapshot.',
    operations: [{ method: 'GET', path: '/snapshots/{snapshot_id}/access-list' }],
  },
  {
    name: 'share_snapshot:allow_access',
    check: ADMIN_OR_PROJECT_MEMBER,
    legacyCheck: LEGACY_DEFAULT,
    description: 'Allow access to a share snapshot.',
    operations: [{ method: 'POST', path: '/snapshots/{snapshot_id}/action' }],
  },
  {
    name: 'share_snapshot:deny_access',
    check: ADMIN_OR_PROJECT_MEMBER,
    legacyCheck: LEGACY_DEFAULT,
    description: 'Deny access to a share snapshot.',
    operations: [{ method: 'POST', path: '/snapshots/{snapshot_id}/action' }],
  },
  {
    name: 'share_snapshot:update_metadata',
    check: ADMIN_OR_PROJECT_MEMBER,
    legacyCheck: LEGACY_DEFAULT,
    description: 'Update snapshot metadata.',
    operations: [
      { method: 'PUT', path: '/snapshots/{snapshot_id}/metadata' },
      { method: 'POST', path: '/snapshots/{snapshot_id}/metadata/{key}' },
      { method: 'POST', path: '/snapshots/{snapshot_id}/metadata' },
    ],
  },
  {
    name: 'share_snapshot:delete_metadata',
    check: ADMIN_OR_PROJECT_MEMBER,
    legacyCheck: LEGACY_DEFAULT,
    description: 'Delete snapshot metadata.',
    operations: [{ method: 'DELETE', path: '/snapshots/{snapshot_id}/metadata/{key}' }],
  },
  {
    name: 'share_snapshot:get_metadata',
    check: ADMIN_OR_PROJECT_READER,
    legacyCheck: LEGACY_DEFAULT,
    description: 'Get snapshot metadata.',
    operations: [
      { method: 'GET', path: '/snapshots/{snapshot_id}/metadata' },
      { method: 'GET', path: '/snapshots/{snapshot_id}/metadata/{key}' },
    ],
  },
];
