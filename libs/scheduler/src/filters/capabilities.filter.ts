import { satisfiesRequirements } from '../extra-specs/capability-requirements.js';
import type { PoolStateRegistry } from '../pool-state/pool-state-registry.js';
import type { SchedulerFilter } from './scheduler-filter.js';

/** Per-pool outcome of one requirement set, valid while the pool's capability stamp is unchanged. */
interface MatchCache {
  stamps: Float64Array;
  passes: Uint8Array;
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
    cache = { stamps: new Float64Array(size), passes: new Uint8Array(size) };
    sets.set(key, cache);
  }
  return cache;
};

/**
 * CapabilitiesFilter: every extra spec (after rewriting) must match the pool's as-reported
 * capabilities with Manila's operators. Capabilities change only with reports, so each pool's
 * outcome per distinct spec set is kept until its next report.
 */
export const capabilitiesFilter: SchedulerFilter = {
  name: 'CapabilitiesFilter',
  prepare({ registry, columns, requirements, requirementsKey }) {
    if (requirements.length === 0) return null;
    const cache = cacheFor(registry, requirementsKey);
    const { stamps, passes } = cache;
    const capabilityStamp = columns.capabilityStamp;
    return {
      keep(candidates, count) {
        let kept = 0;
        for (let i = 0; i < count; i++) {
          const pool = candidates[i] as number;
          const stamp = capabilityStamp[pool] as number;
          if (stamps[pool] !== stamp) {
            passes[pool] = satisfiesRequirements(
              columns.capabilities[pool] as Readonly<Record<string, unknown>>,
              requirements,
            )
              ? 1
              : 0;
            stamps[pool] = stamp;
          }
          if (passes[pool] === 1) candidates[kept++] = pool;
        }
        return kept;
      },
    };
  },
};
