import type { RuleDefinition } from '../rule-definition.js';
import { ADMIN, LEGACY_ADMIN_API } from './personas.js';

/** Manila 15.1's manila/policies/scheduler_stats.py. */
export const SCHEDULER_STATS_RULES: readonly RuleDefinition[] = [
  {
    name: 'scheduler_stats:pools:index',
    check: ADMIN,
    legacyCheck: LEGACY_ADMIN_API,
    description: 'Get information regarding backends (and storage pools) known to the scheduler.',
    operations: [{ method: 'GET', path: '/scheduler-stats/pools?{query}' }],
  },
  {
    name: 'scheduler_stats:pools:detail',
    check: ADMIN,
    legacyCheck: LEGACY_ADMIN_API,
    description:
      'Get detailed information regarding backends (and storage pools) known to the scheduler.',
    operations: [{ method: 'GET', path: '/scheduler-stats/pools/detail?{query}' }],
  },
];
