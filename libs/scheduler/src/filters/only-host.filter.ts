import { keepWhere, type SchedulerFilter } from './scheduler-filter.js';

/**
 * OnlyHostFilter: with an only_host hint (admin contexts only; the caller leaves it out for
 * others) a pool passes iff its host string is exactly that.
 */
export const onlyHostFilter: SchedulerFilter = {
  name: 'OnlyHostFilter',
  prepare({ request, registry, columns }) {
    const onlyHost = request.onlyHost;
    if (onlyHost === null) return null;
    return {
      ...keepWhere((pool) => columns.host[pool] === onlyHost),
      seed() {
        const pool = registry.poolIndex(onlyHost);
        return pool !== undefined && registry.isLive(pool)
          ? Int32Array.of(pool)
          : new Int32Array(0);
      },
    };
  },
};
