import { removeRows } from '../pool-state/sorted-rows.js';
import { keepWhere, type SchedulerFilter } from './scheduler-filter.js';

/**
 * ShareReplicationFilter: for a type with replication_type, the pool needs a replication
 * domain; for a new replica, the same domain as the active replica's pool and no replica of
 * the share on that exact pool already.
 */
export const shareReplicationFilter: SchedulerFilter = {
  name: 'ShareReplicationFilter',
  prepare({ extraSpecs, request, registry, columns, replicationDomain }) {
    if (extraSpecs['replication_type'] === undefined) return null;
    const domains = columns.replicationDomain;
    if (!request.activeReplicaHost) {
      return { ...keepWhere((pool) => domains[pool] !== null), staticKey: 'in-a-domain' };
    }
    // The pools already holding a replica, in row order, to remove after the domain check.
    const replicaPools = request.allReplicaHosts
      .map((host) => registry.poolIndex(host))
      .filter((pool): pool is number => pool !== undefined)
      .sort((a, b) => a - b);
    return {
      keep: (candidates, count) =>
        replicationDomain === null
          ? 0
          : removeRows(
              candidates,
              keepInDomain(candidates, count, domains, replicationDomain),
              replicaPools,
            ),
    };
  },
};

/** The candidates in `domain`; a module function so its optimized code outlives the requests. */
const keepInDomain = (
  candidates: Int32Array,
  count: number,
  domains: readonly (string | null)[],
  domain: string,
): number => {
  let kept = 0;
  for (let i = 0; i < count; i++) {
    const pool = candidates[i] as number;
    if (domains[pool] === domain) candidates[kept++] = pool;
  }
  return kept;
};
