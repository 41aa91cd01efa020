import type { RuleDefinition } from '../rule-definition.js';
import { ADMIN, LEGACY_ADMIN_API } from './personas.js';

/** Manila 15.1's manila/policies/share_snapshot_instance.py. */
export const SHARE_SNAPSHOT_INSTANCE_RULES: readonly RuleDefinition[] = [
  {
    name: 'share_snapshot_instance:show',
    check: ADMIN,
    legacyCheck: LEGACY_ADMIN_API,
    description: 'Get share snapshot instance.',
    operations: [{ method: 'GET', path: '/snapshot-instances/{snapshot_instance_id}' }],
  },
  {
    name: 'share_snapshot_instance:index',
    check: ADMIN,
    legacyCheck: LEGACY_ADMIN_API,
    description: 'Get all share snapshot instances.',
    operations: [{ method: 'GET', path: '/snapshot-instances?{query}' }],
  },
  {
    name: 'share_snapshot_instance:detail',
    check: ADMIN,
    legacyCheck: LEGACY_ADMIN_API,
    description: 'Get details of share snapshot instances.',
    operations: [{ method: 'GET', path: '/snapshot-instances/detail?{query}' }],
  },
  {
    name: 'share_snapshot_instance:reset_status',
    check: ADMIN,
    legacyCheck: LEGACY_ADMIN_API,
    description: "Reset share snapshot instance's status.",
    operations: [{ method: 'POST', path: '/snapshot-instances/{snapshot_instance_id}/action' }],
  },
];
