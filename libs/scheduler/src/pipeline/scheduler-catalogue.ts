import { affinityFilter } from '../filters/affinity.filter.js';
import { antiAffinityFilter } from '../filters/anti-affinity.filter.js';
import { availabilityZoneFilter } from '../filters/availability-zone.filter.js';
import { capabilitiesFilter } from '../filters/capabilities.filter.js';
import { capacityFilter } from '../filters/capacity.filter.js';
import { createFromSnapshotFilter } from '../filters/create-from-snapshot.filter.js';
import { driverFilter } from '../filters/driver.filter.js';
import { ignoreAttemptedHostsFilter } from '../filters/ignore-attempted-hosts.filter.js';
import { jsonFilter } from '../filters/json.filter.js';
import { onlyHostFilter } from '../filters/only-host.filter.js';
import { retryFilter } from '../filters/retry.filter.js';
import type { SchedulerFilter } from '../filters/scheduler-filter.js';
import { shareReplicationFilter } from '../filters/share-replication.filter.js';
import { capacityWeigher } from '../weighers/capacity.weigher.js';
import { goodnessWeigher } from '../weighers/goodness.weigher.js';
import { hostAffinityWeigher } from '../weighers/host-affinity.weigher.js';
import { poolWeigher } from '../weighers/pool.weigher.js';
import type { SchedulerWeigher } from '../weighers/scheduler-weigher.js';

/** An unknown name in the configuration (Manila's SchedulerHostFilterNotFound / ...WeigherNotFound). */
export class UnknownSchedulerComponentError extends Error {
  override readonly name = 'UnknownSchedulerComponentError';
}

export const FILTERS: ReadonlyMap<string, SchedulerFilter> = new Map(
  [
    onlyHostFilter,
    availabilityZoneFilter,
    capacityFilter,
    capabilitiesFilter,
    driverFilter,
    shareReplicationFilter,
    createFromSnapshotFilter,
    affinityFilter,
    antiAffinityFilter,
    retryFilter,
    ignoreAttemptedHostsFilter,
    jsonFilter,
  ].map((filter) => [filter.name, filter]),
);

export const WEIGHERS: ReadonlyMap<string, SchedulerWeigher> = new Map(
  [capacityWeigher, goodnessWeigher, hostAffinityWeigher, poolWeigher].map((weigher) => [
    weigher.name,
    weigher,
  ]),
);

export const resolveFilter = (entry: string | SchedulerFilter): SchedulerFilter => {
  if (typeof entry !== 'string') return entry;
  const filter = FILTERS.get(entry);
  if (!filter)
    throw new UnknownSchedulerComponentError(`Scheduler filter ${entry} could not be found.`);
  return filter;
};

export const resolveWeigher = (entry: string | SchedulerWeigher): SchedulerWeigher => {
  if (typeof entry !== 'string') return entry;
  const weigher = WEIGHERS.get(entry);
  if (!weigher)
    throw new UnknownSchedulerComponentError(`Scheduler weigher ${entry} could not be found.`);
  return weigher;
};
