import { capabilitiesSatisfied, type ExtraSpecs } from '../extra-specs/capability-requirements.js';
import type { CapabilityMap } from './pool-capabilities.js';
import { FreeCapacity } from './pool-columns.js';
import { parsePoolHost } from './pool-host.js';
import type { PoolStateRegistry } from './pool-state-registry.js';

/** The live figures of a pool after this scheduler's placements. */
export interface PoolLiveState {
  readonly totalCapacityGb: number | 'unknown';
  readonly freeCapacityGb: number | 'unknown' | null;
  readonly allocatedCapacityGb: number;
  readonly provisionedCapacityGb: number | null;
  /** Report timestamp the figures come from, ms. */
  readonly reportedAt: number;
  /** The later of that report and the last placement, ms. */
  readonly updatedAt: number;
}

/** One pool as the scheduler-stats API shows it (reference 1.9), plus its live state. */
export interface PoolView {
  /** `hostname@backend#pool`. */
  readonly name: string;
  readonly host: string;
  readonly backend: string | null;
  readonly pool: string | null;
  readonly availabilityZone: string | null;
  /** As reported; the CapabilitiesFilter reads these. */
  readonly capabilities: CapabilityMap;
  readonly state: PoolLiveState;
}

/**
 * Query keys of GET /scheduler-stats/pools: each value is a regular expression matched at the
 * start of the field (Python's re.match). A key other than these excludes every pool, as in Manila.
 */
export type PoolFilters = Readonly<Record<string, string>>;

const FILTERABLE = new Set(['name', 'host', 'backend', 'pool']);

export const poolView = (registry: PoolStateRegistry, index: number): PoolView => {
  const columns = registry.columns;
  const name = columns.host[index] as string;
  const parts = parsePoolHost(name);
  const total = columns.totalGb[index] as number;
  const freeState = columns.freeState[index];
  const provisioned = columns.provisionedGb[index] as number;
  return {
    name,
    host: parts.hostname,
    backend: parts.backendName,
    pool: parts.pool,
    availabilityZone: registry.availabilityZoneOf(index),
    capabilities: columns.capabilities[index] as CapabilityMap,
    state: {
      totalCapacityGb: Number.isNaN(total) ? 'unknown' : total,
      freeCapacityGb:
        freeState === FreeCapacity.Known
          ? (columns.freeGb[index] as number)
          : freeState === FreeCapacity.Unknown
            ? 'unknown'
            : null,
      allocatedCapacityGb: columns.allocatedGb[index] as number,
      provisionedCapacityGb: Number.isNaN(provisioned) ? null : provisioned,
      reportedAt: columns.reportedAt[index] as number,
      updatedAt: columns.updatedAt[index] as number,
    },
  };
};

/**
 * Live pools for the admin views, in enumeration order. `shareTypeSpecs` keeps the pools whose
 * capabilities satisfy a share type's extra specs (the `share_type` query key, resolved by the
 * caller). Throws SyntaxError for an invalid regular expression.
 */
export const listPools = (
  registry: PoolStateRegistry,
  now: number,
  filters: PoolFilters = {},
  shareTypeSpecs?: ExtraSpecs,
): PoolView[] => {
  registry.refresh(now);
  const entries = Object.entries(filters);
  if (entries.some(([key]) => !FILTERABLE.has(key))) return [];
  const patterns = entries.map(([key, pattern]) => [key, new RegExp(`^(?:${pattern})`)] as const);
  const views: PoolView[] = [];
  for (const index of registry.livePools()) {
    const view = poolView(registry, index);
    const fields = view as unknown as Readonly<Record<string, string | null>>;
    if (
      !patterns.every(
        ([key, pattern]) => fields[key] !== null && pattern.test(fields[key] as string),
      )
    )
      continue;
    if (shareTypeSpecs && !capabilitiesSatisfied(view.capabilities, shareTypeSpecs)) continue;
    views.push(view);
  }
  return views;
};

/** One live pool by its `host@backend#pool` string. */
export const getPool = (
  registry: PoolStateRegistry,
  now: number,
  name: string,
): PoolView | undefined => {
  registry.refresh(now);
  const index = registry.poolIndex(name);
  return index !== undefined && registry.isLive(index) ? poolView(registry, index) : undefined;
};
