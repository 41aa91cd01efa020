import type { ExpressionScope } from '../expressions/expression-compiler.js';
import { ExpressionError } from '../expressions/python-values.js';
import { FreeCapacity, type PoolColumns } from './pool-columns.js';

/** Host-state attributes Manila fills with False when the report lacks them. */
const FALSE_BY_DEFAULT = new Set([
  'qos',
  'dedupe',
  'compression',
  'revert_to_snapshot_support',
  'mount_snapshot_support',
  'security_service_update_support',
  'network_allocation_update_support',
  'share_server_multiple_subnet_support',
]);

/** Host-state attributes read as reported (None when absent). */
const AS_REPORTED = new Set([
  'share_backend_name',
  'vendor_name',
  'driver_version',
  'storage_protocol',
  'driver_handles_share_servers',
  'snapshot_support',
  'create_share_from_snapshot_support',
  'sg_consistent_snapshot_support',
  'ipv4_support',
  'ipv6_support',
  'reserved_percentage',
  'reserved_snapshot_percentage',
  'reserved_share_extend_percentage',
]);

const keyError = (key: string): ExpressionError => new ExpressionError(`KeyError: '${key}'`);

/**
 * The variables of filter and goodness functions for one pool (scheduler/utils.generate_stats):
 * `capabilities.*` the as-reported map, `stats.*` the live state including this scheduler's
 * placements, `share.*` the share's properties, `extra.*` the rewritten extra specs.
 * One scope is reused across pools: set `pool` and evaluate.
 */
export class PoolExpressionScope implements ExpressionScope {
  pool = 0;

  constructor(
    private readonly columns: PoolColumns,
    private readonly share: Readonly<Record<string, unknown>> | null,
    private readonly extra: Readonly<Record<string, string>> | null,
  ) {}

  variable(dictionary: string, key: string): unknown {
    switch (dictionary) {
      case 'capabilities': {
        const capabilities = this.columns.capabilities[this.pool] as Readonly<
          Record<string, unknown>
        >;
        if (!Object.hasOwn(capabilities, key)) throw keyError(key);
        return capabilities[key];
      }
      case 'stats':
        return this.stat(key);
      case 'share':
        return lookUp(this.share, key);
      case 'extra':
        return lookUp(this.extra, key);
      default:
        throw keyError(dictionary);
    }
  }

  private stat(key: string): unknown {
    const columns = this.columns;
    const pool = this.pool;
    switch (key) {
      case 'host':
        return columns.host[pool];
      case 'total_capacity_gb': {
        const total = columns.totalGb[pool] as number;
        return Number.isNaN(total) ? 'unknown' : total;
      }
      case 'free_capacity_gb': {
        const state = columns.freeState[pool];
        if (state === FreeCapacity.Unknown) return 'unknown';
        return state === FreeCapacity.Missing ? null : columns.freeGb[pool];
      }
      case 'allocated_capacity_gb':
        return columns.allocatedGb[pool];
      case 'provisioned_capacity_gb': {
        const provisioned = columns.provisionedGb[pool] as number;
        return Number.isNaN(provisioned) ? null : provisioned;
      }
      case 'thin_provisioning':
        return columns.thin[pool] === 1;
      case 'max_over_subscription_ratio':
        return columns.maxOverSubscriptionRatio[pool];
      case 'replication_domain':
        return columns.replicationDomain[pool];
      case 'replication_type':
        return columns.replicationType[pool];
      case 'updated':
      case 'pools':
        // A datetime and None in Manila: neither converts to a number.
        return null;
      default: {
        const capabilities = columns.capabilities[pool] as Readonly<Record<string, unknown>>;
        if (FALSE_BY_DEFAULT.has(key)) return capabilities[key] ?? false;
        if (AS_REPORTED.has(key)) return capabilities[key] ?? null;
        throw keyError(key);
      }
    }
  }
}

const lookUp = (dictionary: Readonly<Record<string, unknown>> | null, key: string): unknown => {
  if (!dictionary || !Object.hasOwn(dictionary, key)) throw keyError(key);
  return dictionary[key];
};
