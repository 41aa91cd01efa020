import { differentHostForbidden, named } from './affinity-hosts.js';
import { keepNothing, type SchedulerFilter } from './scheduler-filter.js';

/**
 * AntiAffinityFilter (different_host, reference 7.3): the pool must host no instance of any
 * listed share (the union of their hosts; other pools of the same back end pass).
 */
export const antiAffinityFilter: SchedulerFilter = {
  name: 'AntiAffinityFilter',
  prepare({ request, registry }) {
    if (!named(request.differentHost)) return null;
    const rule = differentHostForbidden(request.differentHost);
    if (rule.stopReason !== undefined) return keepNothing(rule.stopReason);
    // A hint names a handful of shares: a short array beats a Set per candidate.
    const forbidden: number[] = [];
    for (const host of rule.hosts) {
      const pool = registry.poolIndex(host);
      if (pool !== undefined) forbidden.push(pool);
    }
    return {
      keep(candidates, count) {
        let kept = 0;
        for (let i = 0; i < count; i++) {
          const pool = candidates[i] as number;
          if (!forbidden.includes(pool)) candidates[kept++] = pool;
        }
        return kept;
      },
    };
  },
};
