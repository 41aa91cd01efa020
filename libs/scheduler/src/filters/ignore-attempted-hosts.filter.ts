import { retryFilter } from './retry.filter.js';
import type { SchedulerFilter } from './scheduler-filter.js';

/** IgnoreAttemptedHostsFilter: the same rule as RetryFilter under its newer name. */
export const ignoreAttemptedHostsFilter: SchedulerFilter = {
  name: 'IgnoreAttemptedHostsFilter',
  prepare: (context) => retryFilter.prepare(context),
};
