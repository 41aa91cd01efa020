import { removeRows } from '../pool-state/sorted-rows.js';
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
    const forbidden: number[] = [];
    for (const host of rule.hosts) {
      const pool = registry.poolIndex(host);
      if (pool !== undefined) forbidden.push(pool);
    }
    forbidden.sort((a, b) => a - b);
    return { keep: (candidates, count) => removeRows(candidates, count, forbidden) };
  },
};
