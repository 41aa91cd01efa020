import type { SchedulerFilter } from '../filters/scheduler-filter.js';
import type { SchedulerWeigher } from '../weighers/scheduler-weigher.js';

/** Manila's scheduler options (reference 6.3); filter and weigher entries are class names or modules. */
export interface SchedulerConfig {
  readonly filters: readonly (string | SchedulerFilter)[];
  /** scheduler_default_extend_filters: what a non-forced extend's pool must pass (reference 6.9). */
  readonly extendFilters: readonly (string | SchedulerFilter)[];
  readonly weighers: readonly (string | SchedulerWeigher)[];
  readonly capacityWeightMultiplier: number;
  readonly poolWeightMultiplier: number;
}

export const DEFAULT_FILTERS = [
  'OnlyHostFilter',
  'AvailabilityZoneFilter',
  'CapacityFilter',
  'CapabilitiesFilter',
  'DriverFilter',
  'ShareReplicationFilter',
  'CreateFromSnapshotFilter',
  'AffinityFilter',
  'AntiAffinityFilter',
] as const;

export const DEFAULT_EXTEND_FILTERS = ['CapacityFilter', 'DriverFilter'] as const;

export const DEFAULT_WEIGHERS = [
  'CapacityWeigher',
  'GoodnessWeigher',
  'HostAffinityWeigher',
] as const;

export const DEFAULT_SCHEDULER_CONFIG: SchedulerConfig = {
  filters: DEFAULT_FILTERS,
  extendFilters: DEFAULT_EXTEND_FILTERS,
  weighers: DEFAULT_WEIGHERS,
  capacityWeightMultiplier: 1,
  poolWeightMultiplier: 1,
};
