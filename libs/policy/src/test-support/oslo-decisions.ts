import type { Credentials, PolicyTarget } from '../credentials.js';

/** The target every decision below was taken on: a resource of project A. */
export const PROJECT_A_TARGET: PolicyTarget = { project_id: 'A', user_id: 'u1' };

/** The callers, as oslo.context would describe them (a Keystone token lists implied roles). */
export const MANILA_PERSONAS: Readonly<Record<string, Credentials>> = {
  readerA: { userId: 'u1', projectId: 'A', roles: ['reader'], isAdmin: false },
  memberA: { userId: 'u2', projectId: 'A', roles: ['member', 'reader'], isAdmin: false },
  onlymemberA: { userId: 'u2', projectId: 'A', roles: ['member'], isAdmin: false },
  noroleA: { userId: 'u5', projectId: 'A', roles: [], isAdmin: false },
  memberB: { userId: 'u4', projectId: 'B', roles: ['member', 'reader'], isAdmin: false },
  adminX: { userId: 'u3', projectId: 'X', roles: ['admin', 'member', 'reader'], isAdmin: true },
};

/**
 * What oslo.policy 4.0 (enforce) answers with Manila 15.1's registered defaults, for each of
 * Manila's rules Hawser keeps and each persona of MANILA_PERSONAS, on a share of project A:
 * [rule, personas allowed with enforce_new_defaults=True, personas allowed with it False].
 * Recorded once from oslo.policy itself, so that the table and the engine are held to Manila.
 */
export const OSLO_DECISIONS: readonly (readonly [
  rule: string,
  secure: readonly string[],
  legacy: readonly string[],
])[] = [
  ['project-admin', [], []],
  ['project-member', ['memberA', 'onlymemberA'], ['memberA', 'onlymemberA']],
  ['project-reader', ['readerA', 'memberA'], ['readerA', 'memberA']],
  ['context_is_admin', ['adminX'], ['adminX']],
  [
    'admin_or_owner',
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  [
    'default',
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  ['admin_api', ['adminX'], ['adminX']],
  [
    'availability_zone:index',
    ['readerA', 'memberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  ['scheduler_stats:pools:index', ['adminX'], ['adminX']],
  ['scheduler_stats:pools:detail', ['adminX'], ['adminX']],
  [
    'share:create',
    ['memberA', 'onlymemberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'memberB', 'adminX'],
  ],
  ['share:create_public_share', ['adminX'], ['adminX']],
  [
    'share:get',
    ['readerA', 'memberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  [
    'share:get_all',
    ['readerA', 'memberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  [
    'share:update',
    ['memberA', 'onlymemberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  ['share:set_public_share', ['adminX'], ['adminX']],
  [
    'share:delete',
    ['memberA', 'onlymemberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  ['share:soft_delete', ['memberA', 'onlymemberA', 'adminX'], ['memberA', 'onlymemberA', 'adminX']],
  ['share:restore', ['memberA', 'onlymemberA', 'adminX'], ['memberA', 'onlymemberA', 'adminX']],
  ['share:force_delete', ['adminX'], ['adminX']],
  ['share:manage', ['adminX'], ['adminX']],
  ['share:unmanage', ['adminX'], ['adminX']],
  ['share:list_by_host', ['adminX'], ['adminX']],
  ['share:list_by_share_server_id', ['adminX'], ['adminX']],
  [
    'share:access_get',
    ['readerA', 'memberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  [
    'share:access_get_all',
    ['readerA', 'memberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  [
    'share:extend',
    ['memberA', 'onlymemberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  ['share:force_extend', ['adminX'], ['adminX']],
  [
    'share:shrink',
    ['memberA', 'onlymemberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  ['share:migration_start', ['adminX'], ['adminX']],
  ['share:migration_complete', ['adminX'], ['adminX']],
  ['share:migration_cancel', ['adminX'], ['adminX']],
  ['share:migration_get_progress', ['adminX'], ['adminX']],
  ['share:reset_task_state', ['adminX'], ['adminX']],
  ['share:reset_status', ['adminX'], ['adminX']],
  [
    'share:revert_to_snapshot',
    ['memberA', 'onlymemberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  [
    'share:allow_access',
    ['memberA', 'onlymemberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  [
    'share:deny_access',
    ['memberA', 'onlymemberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  [
    'share:update_share_metadata',
    ['memberA', 'onlymemberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  [
    'share:delete_share_metadata',
    ['memberA', 'onlymemberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  [
    'share:get_share_metadata',
    ['readerA', 'memberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  [
    'share:create_snapshot',
    ['memberA', 'onlymemberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  [
    'share:delete_snapshot',
    ['memberA', 'onlymemberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  [
    'share:snapshot_update',
    ['memberA', 'onlymemberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  ['share:update_admin_only_metadata', ['adminX'], ['adminX']],
  ['share_instance_export_location:index', ['adminX'], ['adminX']],
  ['share_instance_export_location:show', ['adminX'], ['adminX']],
  ['share_type:create', ['adminX'], ['adminX']],
  ['share_type:update', ['adminX'], ['adminX']],
  [
    'share_type:show',
    ['readerA', 'memberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  [
    'share_type:index',
    ['readerA', 'memberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  [
    'share_type:default',
    ['readerA', 'memberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  ['share_type:delete', ['adminX'], ['adminX']],
  ['share_type:list_project_access', ['adminX'], ['adminX']],
  ['share_type:add_project_access', ['adminX'], ['adminX']],
  ['share_type:remove_project_access', ['adminX'], ['adminX']],
  ['share_types_extra_spec:create', ['adminX'], ['adminX']],
  ['share_types_extra_spec:show', ['adminX'], ['adminX']],
  ['share_types_extra_spec:index', ['adminX'], ['adminX']],
  ['share_types_extra_spec:update', ['adminX'], ['adminX']],
  ['share_types_extra_spec:delete', ['adminX'], ['adminX']],
  [
    'share_snapshot:get_snapshot',
    ['readerA', 'memberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  [
    'share_snapshot:get_all_snapshots',
    ['readerA', 'memberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  ['share_snapshot:force_delete', ['adminX'], ['adminX']],
  ['share_snapshot:manage_snapshot', ['adminX'], ['adminX']],
  ['share_snapshot:unmanage_snapshot', ['adminX'], ['adminX']],
  ['share_snapshot:reset_status', ['adminX'], ['adminX']],
  [
    'share_snapshot:access_list',
    ['readerA', 'memberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  [
    'share_snapshot:allow_access',
    ['memberA', 'onlymemberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  [
    'share_snapshot:deny_access',
    ['memberA', 'onlymemberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  [
    'share_snapshot:update_metadata',
    ['memberA', 'onlymemberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  [
    'share_snapshot:delete_metadata',
    ['memberA', 'onlymemberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  [
    'share_snapshot:get_metadata',
    ['readerA', 'memberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  [
    'share_snapshot_export_location:index',
    ['readerA', 'memberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  [
    'share_snapshot_export_location:show',
    ['readerA', 'memberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  ['share_snapshot_instance:show', ['adminX'], ['adminX']],
  ['share_snapshot_instance:index', ['adminX'], ['adminX']],
  ['share_snapshot_instance:detail', ['adminX'], ['adminX']],
  ['share_snapshot_instance:reset_status', ['adminX'], ['adminX']],
  ['share_snapshot_instance_export_location:index', ['adminX'], ['adminX']],
  ['share_snapshot_instance_export_location:show', ['adminX'], ['adminX']],
  ['service:index', ['adminX'], ['adminX']],
  ['service:update', ['adminX'], ['adminX']],
  ['quota_set:update', ['adminX'], ['adminX']],
  [
    'quota_set:show',
    ['readerA', 'memberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  ['quota_set:delete', ['adminX'], ['adminX']],
  ['quota_class_set:update', ['adminX'], ['adminX']],
  [
    'quota_class_set:show',
    ['readerA', 'memberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  [
    'share_replica:create',
    ['memberA', 'onlymemberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  [
    'share_replica:get_all',
    ['readerA', 'memberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  [
    'share_replica:show',
    ['readerA', 'memberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  [
    'share_replica:delete',
    ['memberA', 'onlymemberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  ['share_replica:force_delete', ['adminX'], ['adminX']],
  [
    'share_replica:promote',
    ['memberA', 'onlymemberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  ['share_replica:resync', ['adminX'], ['adminX']],
  ['share_replica:reset_replica_state', ['adminX'], ['adminX']],
  ['share_replica:reset_status', ['adminX'], ['adminX']],
  [
    'share_replica_export_location:index',
    ['readerA', 'memberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  [
    'share_replica_export_location:show',
    ['readerA', 'memberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  [
    'share_export_location:index',
    ['readerA', 'memberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  [
    'share_export_location:show',
    ['readerA', 'memberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  ['share_instance:index', ['adminX'], ['adminX']],
  ['share_instance:show', ['adminX'], ['adminX']],
  ['share_instance:force_delete', ['adminX'], ['adminX']],
  ['share_instance:reset_status', ['adminX'], ['adminX']],
  [
    'message:get',
    ['readerA', 'memberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  [
    'message:get_all',
    ['readerA', 'memberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  [
    'message:delete',
    ['memberA', 'onlymemberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  [
    'share_access_rule:get',
    ['readerA', 'memberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  [
    'share_access_rule:index',
    ['readerA', 'memberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  [
    'share_access_metadata:update',
    ['memberA', 'onlymemberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
  [
    'share_access_metadata:delete',
    ['memberA', 'onlymemberA', 'adminX'],
    ['readerA', 'memberA', 'onlymemberA', 'noroleA', 'adminX'],
  ],
];
