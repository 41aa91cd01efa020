import { named, sameHostAllowed } from './affinity-hosts.js';
import { keepNothing, keepWhere, type SchedulerFilter } from './scheduler-filter.js';

/**
 * AffinityFilter (same_host, reference 7.3): the pool must host an instance of every listed
 * share (the intersection of their hosts, compared as full pool host strings).
 */
export const affinityFilter: SchedulerFilter = {
  name: 'AffinityFilter',
  prepare({ request, columns }) {
    if (!named(request.sameHost)) return null;
    const rule = sameHostAllowed(request.sameHost);
    if (rule.stopReason !== undefined) return keepNothing(rule.stopReason);
    return keepWhere((pool) => rule.hosts.has(columns.host[pool] as string));
  },
};
