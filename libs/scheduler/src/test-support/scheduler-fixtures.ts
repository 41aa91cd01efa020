import type { SchedulerFilter } from '../filters/scheduler-filter.js';
import type { SchedulerConfig } from '../pipeline/scheduler-config.js';
import type { NoValidHost, Placement, SchedulingResult } from '../pipeline/scheduling-result.js';
import { DEFAULT_SCHEDULER_CONFIG } from '../pipeline/scheduler-config.js';
import type { ReportedPoolCapabilities } from '../pool-state/pool-capabilities.js';
import { PoolStateRegistry } from '../pool-state/pool-state-registry.js';
import { schedulingContext } from '../request/scheduling-context.js';
import { schedulingRequest, type SchedulingRequestInput } from '../request/scheduling-request.js';
import type { SchedulerWeigher } from '../weighers/scheduler-weigher.js';

/** A complete pool report: 1000 GiB total, 500 free, thick, NFS, no reserve; override any key. */
export const pool = (
  name: string,
  overrides: Readonly<Record<string, unknown>> = {},
): ReportedPoolCapabilities =>
  ({
    pool_name: name,
    share_backend_name: 'BACKEND',
    storage_protocol: 'NFS_CIFS',
    vendor_name: 'Hawser',
    driver_version: '1.0',
    driver_handles_share_servers: false,
    snapshot_support: true,
    create_share_from_snapshot_support: true,
    total_capacity_gb: 1000,
    free_capacity_gb: 500,
    allocated_capacity_gb: 500,
    provisioned_capacity_gb: 500,
    reserved_percentage: 0,
    reserved_snapshot_percentage: 0,
    reserved_share_extend_percentage: 0,
    thin_provisioning: false,
    max_over_subscription_ratio: 1,
    replication_type: null,
    replication_domain: null,
    ...overrides,
  }) as unknown as ReportedPoolCapabilities;

export interface BackendFixture {
  readonly backend: string;
  readonly zone?: string;
  readonly pools: readonly ReportedPoolCapabilities[];
}

/** A registry with these back ends reported at time 0. */
export const registryWith = (
  backends: readonly BackendFixture[],
  options = {},
): PoolStateRegistry => {
  const registry = new PoolStateRegistry(options);
  for (const { backend, zone, pools } of backends)
    registry.report(backend, pools, 0, zone ?? 'az-1');
  return registry;
};

export const request = (overrides: Partial<SchedulingRequestInput> = {}) =>
  schedulingRequest({
    shareId: 'share-1',
    size: 10,
    shareProto: 'NFS',
    shareType: { id: 'type-1', name: 'default', extraSpecs: {} },
    ...overrides,
  });

/** The pool host strings one filter keeps, starting from every live pool. */
export const keptBy = (
  filter: SchedulerFilter,
  registry: PoolStateRegistry,
  input: Partial<SchedulingRequestInput> = {},
): string[] => {
  registry.refresh(1);
  const live = registry.livePools();
  const prepared = filter.prepare(schedulingContext(registry, request(input), 1));
  const candidates = Int32Array.from(live);
  const count = prepared ? prepared.keep(candidates, candidates.length) : candidates.length;
  return [...candidates.subarray(0, count)].map((index) => registry.columns.host[index] as string);
};

/** Raw weights by pool host string, over every live pool; null when the weigher skips the request. */
export const rawWeights = (
  weigher: SchedulerWeigher,
  registry: PoolStateRegistry,
  input: Partial<SchedulingRequestInput> = {},
  config: Partial<SchedulerConfig> = {},
): Record<string, number> | null => {
  registry.refresh(1);
  const live = registry.livePools();
  const prepared = weigher.prepare(schedulingContext(registry, request(input), 1), {
    ...DEFAULT_SCHEDULER_CONFIG,
    ...config,
  });
  if (!prepared) return null;
  const raw = new Float64Array(live.length);
  prepared.weigh(live, live.length, raw);
  return Object.fromEntries(
    [...live].map((index, i) => [registry.columns.host[index] as string, raw[i] as number]),
  );
};

/** The placement a result must be. */
export const placed = (result: SchedulingResult): Placement => {
  if (result.outcome !== 'placed') throw new Error(`expected a placement, got ${result.message}`);
  return result;
};

/** The no-valid-host a result must be. */
export const failed = (result: SchedulingResult): NoValidHost => {
  if (result.outcome !== 'no-valid-host')
    throw new Error(`expected no valid host, got ${result.host}`);
  return result;
};

/** A repeatable random integer below `below` (mulberry32), for specs that try many cases. */
export const seededRandom = (seed: number) => {
  let state = seed >>> 0;
  return (below: number): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4_294_967_296) * below);
  };
};
