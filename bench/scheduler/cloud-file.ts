import {
  schedulingRequest,
  type ReferencedShare,
  type ReportedPoolCapabilities,
  type SchedulerConfig,
  type SchedulingRequest,
} from '#hawser/scheduler';

/** The benchmark kit's workload file, format 1 (its README, "Workload file"). */
export interface CloudFile {
  readonly format: 1;
  readonly config: {
    readonly scheduler_default_filters: readonly string[];
    readonly scheduler_default_weighers: readonly string[];
    readonly capacity_weight_multiplier: number;
    readonly pool_weight_multiplier: number;
    readonly max_over_subscription_ratio: number;
  };
  readonly pools: readonly CloudPool[];
  readonly existing_shares: readonly { readonly id: string; readonly host: string }[];
  readonly requests: readonly CloudRequest[];
}

interface CloudPool {
  readonly host: string;
  readonly availability_zone: string;
  readonly capabilities: ReportedPoolCapabilities;
}

export interface CloudRequest {
  readonly workload: string;
  readonly kind: 'create' | 'create_from_snapshot' | 'create_replica';
  readonly instance_id: string;
  readonly size: number;
  readonly share_proto: string;
  readonly availability_zone: string | null;
  readonly availability_zones: readonly string[] | null;
  readonly share_type: {
    readonly id: string;
    readonly name: string;
    readonly extra_specs: Readonly<Record<string, string>>;
  };
  readonly snapshot: {
    readonly id: string;
    readonly host: string;
    readonly share_availability_zone: string | null;
  } | null;
  readonly scheduler_hints: {
    readonly same_host?: readonly string[];
    readonly different_host?: readonly string[];
  } | null;
  readonly active_replica_host?: string;
  readonly all_replica_hosts?: readonly string[];
}

/** One back end's report: its pools are contiguous in the file. */
export interface BackendReport {
  readonly backend: string;
  readonly availabilityZone: string;
  readonly pools: ReportedPoolCapabilities[];
}

export const backendReports = (cloud: CloudFile): BackendReport[] => {
  const reports: BackendReport[] = [];
  for (const pool of cloud.pools) {
    const backend = pool.host.slice(0, pool.host.indexOf('#'));
    const last = reports.at(-1);
    if (last?.backend === backend) last.pools.push(pool.capabilities);
    else
      reports.push({
        backend,
        availabilityZone: pool.availability_zone,
        pools: [pool.capabilities],
      });
  }
  return reports;
};

export const schedulerConfig = (cloud: CloudFile): Partial<SchedulerConfig> => ({
  filters: cloud.config.scheduler_default_filters,
  weighers: cloud.config.scheduler_default_weighers,
  capacityWeightMultiplier: cloud.config.capacity_weight_multiplier,
  poolWeightMultiplier: cloud.config.pool_weight_multiplier,
});

/** Hints name shares; the scheduler takes them resolved to their instances' hosts. */
const resolveShares = (
  ids: readonly string[] | undefined,
  hostsById: ReadonlyMap<string, string>,
): ReferencedShare[] | null => {
  if (!ids) return null;
  return ids.map((shareId) => {
    const host = hostsById.get(shareId);
    return { shareId, instanceHosts: host === undefined ? [] : [host] };
  });
};

/**
 * What a long-running scheduler that has seen the cloud's share types would have prepared: one
 * request per distinct share type, protocol and kind of request (new share, clone, replica) in
 * each of the cloud's zones and none, without hints. Placing them is not the point: they prime
 * the scheduler's static pool sets (`FilterScheduler.prime`).
 */
export const primingRequests = (cloud: CloudFile): SchedulingRequest[] => {
  const zones = [null, ...new Set(cloud.pools.map((pool) => pool.availability_zone))];
  const shapes = new Map<string, CloudRequest>();
  for (const request of cloud.requests) {
    const shape = JSON.stringify([
      request.share_type,
      request.share_proto,
      request.kind,
      request.availability_zones,
    ]);
    if (!shapes.has(shape)) shapes.set(shape, request);
  }
  const hostsById = new Map<string, string>();
  return [...shapes.values()].flatMap((request) =>
    zones.map((zone) =>
      toSchedulingRequest(
        { ...request, instance_id: 'priming', availability_zone: zone, scheduler_hints: null },
        hostsById,
      ),
    ),
  );
};

const toSchedulingRequest = (
  request: CloudRequest,
  hostsById: ReadonlyMap<string, string>,
): SchedulingRequest =>
  schedulingRequest({
    shareId: request.instance_id,
    size: request.size,
    shareProto: request.share_proto,
    shareType: {
      id: request.share_type.id,
      name: request.share_type.name,
      extraSpecs: request.share_type.extra_specs,
    },
    availabilityZone: request.availability_zone,
    availabilityZones: request.availability_zones ?? [],
    snapshot: request.snapshot && {
      id: request.snapshot.id,
      host: request.snapshot.host,
      shareAvailabilityZone: request.snapshot.share_availability_zone,
    },
    activeReplicaHost: request.active_replica_host ?? null,
    allReplicaHosts: request.all_replica_hosts ?? [],
    sameHost: resolveShares(request.scheduler_hints?.same_host, hostsById),
    differentHost: resolveShares(request.scheduler_hints?.different_host, hostsById),
  });

export const cloudRequests = (cloud: CloudFile): SchedulingRequest[] => {
  const hostsById = new Map(cloud.existing_shares.map((share) => [share.id, share.host]));
  return cloud.requests.map((request) => toSchedulingRequest(request, hostsById));
};
