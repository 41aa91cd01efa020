import { parsePoolHost } from '../pool-state/pool-host.js';
import type { SchedulerFilter } from './scheduler-filter.js';

/**
 * CreateFromSnapshotFilter (reference 4.3): a clone goes to the snapshot's back end, or to a
 * pool in the same (non-null) replication domain as the snapshot's pool.
 */
export const createFromSnapshotFilter: SchedulerFilter = {
  name: 'CreateFromSnapshotFilter',
  prepare({ request, registry, columns, replicationDomain }) {
    const snapshot = request.snapshot;
    if (!snapshot || !request.snapshotId) return null;
    const sourceBackend = registry.backendIndex(parsePoolHost(snapshot.host).backend) ?? -1;
    const { backendIndex, replicationDomain: domains } = columns;
    return {
      keep: (candidates, count) =>
        keepNearSource(candidates, count, backendIndex, sourceBackend, domains, replicationDomain),
    };
  },
};

/** A module function, not a closure per request, so its optimized code outlives the requests. */
const keepNearSource = (
  candidates: Int32Array,
  count: number,
  backendIndex: Int32Array,
  sourceBackend: number,
  domains: readonly (string | null)[],
  domain: string | null,
): number => {
  let kept = 0;
  for (let i = 0; i < count; i++) {
    const pool = candidates[i] as number;
    if (backendIndex[pool] === sourceBackend || (!!domain && domains[pool] === domain))
      candidates[kept++] = pool;
  }
  return kept;
};
