import type { PoolCapabilities, PoolStats } from '../contract/share-driver.js';
import { parseShareHost } from '../contract/share-host.js';
import type { BackendConfig } from '../config/backend-config.js';

/** What a driver measured for one pool. */
export interface PoolFigures {
  readonly poolName: string;
  readonly totalCapacityGb: number | 'unknown';
  readonly freeCapacityGb: number | 'unknown';
  readonly allocatedCapacityGb: number;
  readonly provisionedCapacityGb: number;
}

/** What a driver implementation supports, independent of configuration. */
export interface DriverTraits {
  readonly vendorName: string;
  readonly driverVersion: string;
  readonly storageProtocol: string;
  readonly thinProvisioningDefault: boolean;
  readonly revertToSnapshotSupport: boolean;
  readonly mountSnapshotSupport: boolean;
}

const GIB_ROUNDING = 100;

export function roundGb(value: number): number {
  return Math.round(value * GIB_ROUNDING) / GIB_ROUNDING;
}

export function buildPoolStats(
  config: BackendConfig,
  traits: DriverTraits,
  figures: PoolFigures,
  now: Date,
): PoolStats {
  const options = config.options ?? {};
  const { host, backendName } = parseShareHost(`${config.name}#${figures.poolName}`);
  const replicationDomain = config.replicationDomain ?? null;
  const capabilities: PoolCapabilities = {
    pool_name: figures.poolName,
    total_capacity_gb: figures.totalCapacityGb,
    free_capacity_gb: figures.freeCapacityGb,
    allocated_capacity_gb: figures.allocatedCapacityGb,
    provisioned_capacity_gb: figures.provisionedCapacityGb,
    reserved_percentage: options.reservedPercentage ?? 0,
    reserved_snapshot_percentage: options.reservedSnapshotPercentage ?? 0,
    reserved_share_extend_percentage: options.reservedShareExtendPercentage ?? 0,
    thin_provisioning: options.thinProvisioning ?? traits.thinProvisioningDefault,
    max_over_subscription_ratio: options.maxOverSubscriptionRatio ?? 20,
    qos: false,
    dedupe: options.dedupe ?? false,
    compression: options.compression ?? false,
    snapshot_support: true,
    create_share_from_snapshot_support: true,
    revert_to_snapshot_support: traits.revertToSnapshotSupport,
    mount_snapshot_support: traits.mountSnapshotSupport,
    replication_type: replicationDomain ? (options.replicationType ?? 'readable') : null,
    replication_domain: replicationDomain,
    driver_handles_share_servers: false,
    ipv4_support: true,
    ipv6_support: false,
    share_backend_name: options.shareBackendName ?? backendName,
    vendor_name: traits.vendorName,
    driver_version: traits.driverVersion,
    storage_protocol: traits.storageProtocol,
    goodness_function: options.goodnessFunction ?? null,
    filter_function: options.filterFunction ?? null,
    sg_consistent_snapshot_support: 'pool',
    security_service_update_support: false,
    network_allocation_update_support: false,
    share_server_multiple_subnet_support: false,
    timestamp: now.toISOString(),
  };
  return {
    name: `${config.name}#${figures.poolName}`,
    host,
    backend: backendName,
    pool: figures.poolName,
    availabilityZone: config.availabilityZone,
    capabilities,
  };
}
