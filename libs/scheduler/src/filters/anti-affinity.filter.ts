import { referencedHostSets } from './affinity-hosts.js';
import { keepNothing, type SchedulerFilter } from './scheduler-filter.js';

/**
 * AntiAffinityFilter (different_host, reference 7.3): the pool must host no instance of any
 * listed share (the union of their hosts; other pools of the same back end pass).
 */
export const antiAffinityFilter: SchedulerFilter = {
  name: 'AntiAffinityFilter',
  prepare({ request, registry }) {
    if (request.differentHost === null) return null;
    const resolved = referencedHostSets(request.differentHost);
    if ('stopReason' in resolved) return keepNothing(resolved.stopReason);
    // A hint names a handful of shares: a short array beats a Set per candidate.
    const forbidden: number[] = [];
    for (const set of resolved.sets) {
      for (const host of set) {
        const pool = registry.poolIndex(host);
        if (pool !== undefined && !forbidden.includes(pool)) forbidden.push(pool);
      }
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
