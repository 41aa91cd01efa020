import { parsePoolHost } from '../pool-state/pool-host.js';
import { keepWhere, type SchedulerFilter } from './scheduler-filter.js';

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
    return keepWhere(
      (pool) =>
        backendIndex[pool] === sourceBackend ||
        (!!replicationDomain && domains[pool] === replicationDomain),
    );
  },
};
