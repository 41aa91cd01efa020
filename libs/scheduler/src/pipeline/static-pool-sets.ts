import type { PreparedFilter } from '../filters/scheduler-filter.js';
import type { PoolStateRegistry } from '../pool-state/pool-state-registry.js';
import { firstRowAtOrAfter } from '../pool-state/sorted-rows.js';

/** Bound on the cached sets (their keys come from what requests send). */
const MAX_SETS = 256;

interface StaticSet {
  /** Live pools passing every static filter, in enumeration (row) order. */
  pools: Int32Array;
  /** The registry's capabilityVersion the pools are up to date with. */
  version: number;
  layoutVersion: number;
}

/**
 * The live pools passing every static filter of a request (the filters with a `staticKey`), per
 * combination of keys. A set is built once from the smallest index the filters offer; after
 * that each use brings it up to date by redoing only the back ends whose capabilities, zone or
 * liveness changed since (a back end's pools are contiguous rows), so the reports streaming in
 * never make a decision start again from every pool. Only a renumbering of the rows, or most
 * back ends changed at once, rebuilds a set. The least recently used set goes past the bound.
 */
export class StaticPoolSets {
  private readonly sets = new Map<string, StaticSet>();
  private scratch = new Int32Array(16);

  constructor(private readonly registry: PoolStateRegistry) {}

  /** The live pools passing every static filter among `prepared` (every live pool if none is). */
  pools(prepared: readonly (PreparedFilter | null)[]): Int32Array {
    let key = '';
    for (let index = 0; index < prepared.length; index++) {
      const staticKey = prepared[index]?.staticKey;
      if (staticKey !== undefined) key += `${index}:${staticKey}\u0000`;
    }
    if (key === '') return this.registry.livePools();
    const registry = this.registry;
    const cached = this.sets.get(key);
    if (cached) {
      this.sets.delete(key);
      if (cached.layoutVersion === registry.layoutVersion && this.catchUp(cached, prepared)) {
        this.sets.set(key, cached);
        return cached.pools;
      }
    }
    const set: StaticSet = {
      pools: build(registry.livePools(), prepared),
      version: registry.capabilityVersion,
      layoutVersion: registry.layoutVersion,
    };
    if (this.sets.size >= MAX_SETS) this.sets.delete(this.sets.keys().next().value as string);
    this.sets.set(key, set);
    return set.pools;
  }

  /** Redoes the back ends changed since the set was made; false when a rebuild costs no more. */
  private catchUp(set: StaticSet, prepared: readonly (PreparedFilter | null)[]): boolean {
    const registry = this.registry;
    if (set.version === registry.capabilityVersion) return true;
    const backends = registry.backendCount;
    const changed: number[] = [];
    for (let backend = 0; backend < backends; backend++) {
      if (registry.backendChangedAt(backend) > set.version) changed.push(backend);
    }
    if (changed.length * 4 > backends) return false;
    let pools = set.pools;
    for (const backend of changed) pools = this.redoBackend(pools, backend, prepared);
    set.pools = pools;
    set.version = registry.capabilityVersion;
    return true;
  }

  /** `pools` with one back end's rows replaced by those of them now passing. */
  private redoBackend(
    pools: Int32Array,
    backend: number,
    prepared: readonly (PreparedFilter | null)[],
  ): Int32Array {
    const registry = this.registry;
    const { start, end } = registry.backendRows(backend);
    if (this.scratch.length < end - start) this.scratch = new Int32Array(end - start);
    const passing = this.scratch;
    let count = 0;
    for (let pool = start; pool < end; pool++) if (registry.isLive(pool)) passing[count++] = pool;
    for (let index = 0; index < prepared.length && count > 0; index++) {
      const filter = prepared[index];
      if (filter?.staticKey !== undefined) count = filter.keep(passing, count);
    }
    const from = firstRowAtOrAfter(pools, start);
    const to = firstRowAtOrAfter(pools, end);
    if (to - from === count) {
      let same = true;
      for (let i = 0; i < count && same; i++) same = pools[from + i] === passing[i];
      if (same) return pools;
    }
    const next = new Int32Array(pools.length - (to - from) + count);
    next.set(pools.subarray(0, from));
    next.set(passing.subarray(0, count), from);
    next.set(pools.subarray(to), from + count);
    return next;
  }
}

/** From every live pool, or the smallest index a static filter offers, through every static filter. */
const build = (live: Int32Array, prepared: readonly (PreparedFilter | null)[]): Int32Array => {
  let seedFilter = -1;
  let start = live;
  for (let index = 0; index < prepared.length; index++) {
    const filter = prepared[index];
    if (filter?.staticKey === undefined) continue;
    const offered = filter.seed?.();
    if (offered && offered.length < start.length) {
      start = offered;
      seedFilter = index;
    }
  }
  const buffer = Int32Array.from(start);
  let count = buffer.length;
  for (let index = 0; index < prepared.length && count > 0; index++) {
    const filter = prepared[index];
    if (filter?.staticKey !== undefined && index !== seedFilter) count = filter.keep(buffer, count);
  }
  return buffer.slice(0, count);
};
