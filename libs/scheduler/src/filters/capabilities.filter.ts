import {
  satisfiesRequirements,
  type CapabilityRequirement,
} from '../extra-specs/capability-requirements.js';
import type { PoolStateRegistry } from '../pool-state/pool-state-registry.js';
import type { SchedulerFilter } from './scheduler-filter.js';

/**
 * What one requirement set gives every pool: per-pool outcomes, valid while the pool's
 * capability stamp is unchanged, and the live pools that pass, valid while the registry's
 * capability version is unchanged.
 */
interface MatchCache {
  stamps: Float64Array;
  passes: Uint8Array;
  /** Backing store of `passing`, reused across revalidations. */
  buffer: Int32Array;
  passing: Int32Array;
  version: number;
}

const MAX_CACHED_SETS = 512;
const caches = new WeakMap<PoolStateRegistry, Map<string, MatchCache>>();

const cacheFor = (registry: PoolStateRegistry, key: string): MatchCache => {
  let sets = caches.get(registry);
  if (!sets) caches.set(registry, (sets = new Map()));
  let cache = sets.get(key);
  const size = registry.size;
  if (!cache || cache.stamps.length !== size) {
    if (!cache && sets.size >= MAX_CACHED_SETS) sets.clear();
    cache = {
      stamps: new Float64Array(size),
      passes: new Uint8Array(size),
      buffer: new Int32Array(size),
      passing: new Int32Array(0),
      version: -1,
    };
    sets.set(key, cache);
  }
  return cache;
};

const outcome = (
  cache: MatchCache,
  registry: PoolStateRegistry,
  requirements: readonly CapabilityRequirement[],
  pool: number,
): number => {
  const columns = registry.columns;
  const stamp = columns.capabilityStamp[pool] as number;
  if (cache.stamps[pool] !== stamp) {
    cache.passes[pool] = satisfiesRequirements(
      columns.capabilities[pool] as Readonly<Record<string, unknown>>,
      requirements,
    )
      ? 1
      : 0;
    cache.stamps[pool] = stamp;
  }
  return cache.passes[pool] as number;
};

/** Brings the list of passing live pools up to date (only after reports or liveness changes). */
const passingLivePools = (
  cache: MatchCache,
  registry: PoolStateRegistry,
  requirements: readonly CapabilityRequirement[],
): Int32Array => {
  if (cache.version === registry.capabilityVersion) return cache.passing;
  const live = registry.livePools();
  const passing = new Int32Array(live.length);
  let count = 0;
  for (const pool of live)
    if (outcome(cache, registry, requirements, pool) === 1) passing[count++] = pool;
  cache.passing = passing.slice(0, count);
  cache.version = registry.capabilityVersion;
  return cache.passing;
};

/**
 * CapabilitiesFilter: every extra spec (after rewriting) must match the pool's as-reported
 * capabilities with Manila's operators. Capabilities change only with reports, so each pool's
 * outcome per distinct spec set is kept until its next report, and the passing pools are
 * known without scanning.
 */
export const capabilitiesFilter: SchedulerFilter = {
  name: 'CapabilitiesFilter',
  prepare({ registry, requirements, requirementsKey }) {
    if (requirements.length === 0) return null;
    const cache = cacheFor(registry, requirementsKey);
    return {
      keep(candidates, count) {
        let kept = 0;
        for (let i = 0; i < count; i++) {
          const pool = candidates[i] as number;
          if (outcome(cache, registry, requirements, pool) === 1) candidates[kept++] = pool;
        }
        return kept;
      },
      seed: () => passingLivePools(cache, registry, requirements),
    };
  },
};
