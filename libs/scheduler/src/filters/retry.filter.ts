import { keepWhere, type SchedulerFilter } from './scheduler-filter.js';

/** RetryFilter: a pool tried by an earlier attempt of this request fails. */
export const retryFilter: SchedulerFilter = {
  name: 'RetryFilter',
  prepare({ request, columns }) {
    if (request.attemptedHosts.length === 0) return null;
    const attempted = new Set(request.attemptedHosts);
    return keepWhere((pool) => !attempted.has(columns.host[pool] as string));
  },
};
