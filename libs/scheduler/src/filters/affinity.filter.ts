import { referencedHostSets } from './affinity-hosts.js';
import { keepNothing, keepWhere, type SchedulerFilter } from './scheduler-filter.js';

/**
 * AffinityFilter (same_host, reference 7.3): the pool must host an instance of every listed
 * share (the intersection of their hosts, compared as full pool host strings).
 */
export const affinityFilter: SchedulerFilter = {
  name: 'AffinityFilter',
  prepare({ request, columns }) {
    if (request.sameHost === null) return null;
    const resolved = referencedHostSets(request.sameHost);
    if ('stopReason' in resolved) return keepNothing(resolved.stopReason);
    const [first, ...others] = resolved.sets;
    const allowed = new Set(
      [...(first ?? [])].filter((host) => others.every((set) => set.has(host))),
    );
    return keepWhere((pool) => allowed.has(columns.host[pool] as string));
  },
};
