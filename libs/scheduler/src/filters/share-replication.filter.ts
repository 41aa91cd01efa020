import { keepWhere, type SchedulerFilter } from './scheduler-filter.js';

/**
 * ShareReplicationFilter: for a type with replication_type, the pool needs a replication
 * domain; for a new replica, the same domain as the active replica's pool and no replica of
 * the share on that exact pool already.
 */
export const shareReplicationFilter: SchedulerFilter = {
  name: 'ShareReplicationFilter',
  prepare({ extraSpecs, request, columns, replicationDomain }) {
    if (extraSpecs['replication_type'] === undefined) return null;
    const domains = columns.replicationDomain;
    if (!request.activeReplicaHost) {
      return { ...keepWhere((pool) => domains[pool] !== null), staticKey: 'in-a-domain' };
    }
    const replicaHosts = new Set(request.allReplicaHosts);
    return keepWhere((pool) => {
      const domain = domains[pool] ?? null;
      return (
        domain !== null &&
        domain === replicationDomain &&
        !replicaHosts.has(columns.host[pool] as string)
      );
    });
  },
};
