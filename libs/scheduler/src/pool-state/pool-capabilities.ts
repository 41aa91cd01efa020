/**
 * One pool of a back end's capability report, Manila's per-pool dict with the back-end-level
 * keys already merged in (reference 1.9). Keys keep Manila's snake_case names because share-type
 * extra specs and filter/goodness functions name them. Any other key is a custom capability
 * that the CapabilitiesFilter and `capabilities.*` in functions can read.
 */
export interface ReportedPoolCapabilities {
  readonly pool_name: string;
  /** GiB, or 'unknown' (such pools pass the CapacityFilter and weigh last). */
  readonly total_capacity_gb: number | 'unknown';
  readonly free_capacity_gb: number | 'unknown' | null;
  readonly allocated_capacity_gb?: number;
  /** If absent on a thin pool, taken as 0 plus what this scheduler placed since. */
  readonly provisioned_capacity_gb?: number | null;
  readonly reserved_percentage: number;
  readonly reserved_snapshot_percentage: number;
  readonly reserved_share_extend_percentage: number;
  /** Thin if true or a list containing true. */
  readonly thin_provisioning?: boolean | readonly boolean[];
  /** Defaults to the scheduler's max_over_subscription_ratio option (20.0). */
  readonly max_over_subscription_ratio?: number;
  readonly replication_type?: string | null;
  readonly replication_domain?: string | null;
  readonly snapshot_support?: boolean;
  readonly create_share_from_snapshot_support?: boolean;
  readonly share_server_multiple_subnet_support?: boolean;
  readonly filter_function?: string | null;
  readonly goodness_function?: string | null;
}

/** A capability map read by key; what a report holds after validation. */
export type CapabilityMap = Readonly<Record<string, unknown>>;

export const asCapabilityMap = (pool: ReportedPoolCapabilities): CapabilityMap =>
  pool as unknown as CapabilityMap;
