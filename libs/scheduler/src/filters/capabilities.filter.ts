import {
  matchesValue,
  satisfiesRequirement,
  type CapabilityRequirement,
} from '../extra-specs/capability-requirements.js';
import type { CapabilityValueColumn } from '../pool-state/capability-value-column.js';
import {
  VOLATILE_CAPABILITIES,
  type PoolStateRegistry,
} from '../pool-state/pool-state-registry.js';
import type { PreparedFilter, SchedulerFilter } from './scheduler-filter.js';

const UNKNOWN = -1;

/** A requirement's outcome per distinct value of its capability column (-1: not yet matched). */
interface ValueOutcomes {
  readonly column: CapabilityValueColumn;
  outcomes: Int8Array;
}

interface RegistryCaches {
  readonly requirements: Map<CapabilityRequirement, ValueOutcomes>;
  readonly sets: Map<string, RequirementSet>;
}

/** Bounds for caches keyed by what requests send. */
const MAX_CACHED = 1024;
const caches = new WeakMap<PoolStateRegistry, RegistryCaches>();

const cachesOf = (registry: PoolStateRegistry): RegistryCaches => {
  let found = caches.get(registry);
  if (!found) caches.set(registry, (found = { requirements: new Map(), sets: new Map() }));
  return found;
};

const valueOutcomes = (
  registry: PoolStateRegistry,
  requirement: CapabilityRequirement,
): ValueOutcomes => {
  const all = cachesOf(registry).requirements;
  const column = registry.capabilityValueColumn(requirement.path[0] as string);
  let found = all.get(requirement);
  if (!found || found.column !== column) {
    if (!found && all.size >= MAX_CACHED) all.clear();
    found = { column, outcomes: new Int8Array(column.distinctValues).fill(UNKNOWN) };
    all.set(requirement, found);
  }
  return found;
};

/** One requirement over pools: by value id for a top-level key, by lookup for a nested path. */
class RequirementTest {
  private readonly byValue: ValueOutcomes | null;

  constructor(
    private readonly registry: PoolStateRegistry,
    private readonly requirement: CapabilityRequirement,
  ) {
    this.byValue = requirement.path.length === 1 ? valueOutcomes(registry, requirement) : null;
  }

  /** Compacts `pools[0..count)` to those passing, in order; returns how many remain. */
  keepPassing(pools: Int32Array, count: number): number {
    const byValue = this.byValue;
    let kept = 0;
    if (byValue === null) {
      const capabilities = this.registry.columns.capabilities;
      for (let i = 0; i < count; i++) {
        const pool = pools[i] as number;
        const map = capabilities[pool] as Readonly<Record<string, unknown>>;
        if (satisfiesRequirement(map, this.requirement)) pools[kept++] = pool;
      }
      return kept;
    }
    const ids = byValue.column.ids;
    if (byValue.outcomes.length < byValue.column.distinctValues) this.growOutcomes(byValue);
    const outcomes = byValue.outcomes;
    for (let i = 0; i < count; i++) {
      const pool = pools[i] as number;
      const id = ids[pool] as number;
      let outcome = outcomes[id] as number;
      if (outcome === UNKNOWN) outcome = this.match(byValue, id);
      if (outcome === 1) pools[kept++] = pool;
    }
    return kept;
  }

  private match(byValue: ValueOutcomes, id: number): number {
    const outcome = id !== 0 && matchesValue(this.requirement, byValue.column.values[id]) ? 1 : 0;
    byValue.outcomes[id] = outcome;
    return outcome;
  }

  private growOutcomes(byValue: ValueOutcomes): void {
    const grown = new Int8Array(byValue.column.distinctValues).fill(UNKNOWN);
    grown.set(byValue.outcomes);
    byValue.outcomes = grown;
  }
}

/**
 * A share type's requirements as a prepared filter, reused by every request of that type: the
 * live pools that pass are kept until the registry's capabilities or liveness change. A type
 * that requires a volatile capability (free_capacity_gb ...) is checked on every request.
 */
class RequirementSet implements PreparedFilter {
  readonly staticKey: string | undefined;
  private tests: RequirementTest[] = [];
  private testsVersion = -1;
  private readonly buffer: Int32Array;
  private passing: Int32Array = new Int32Array(0);
  private passingVersion = -1;

  constructor(
    private readonly registry: PoolStateRegistry,
    private readonly requirements: readonly CapabilityRequirement[],
    key: string,
  ) {
    this.buffer = new Int32Array(registry.size);
    const volatile = requirements.some((requirement) =>
      VOLATILE_CAPABILITIES.has(requirement.path[0] as string),
    );
    this.staticKey = volatile ? undefined : key;
  }

  get capacity(): number {
    return this.buffer.length;
  }

  keep(pools: Int32Array, count: number): number {
    if (this.testsVersion !== this.registry.valueColumnVersion) {
      this.tests = this.requirements.map(
        (requirement) => new RequirementTest(this.registry, requirement),
      );
      this.testsVersion = this.registry.valueColumnVersion;
    }
    let kept = count;
    for (const test of this.tests) kept = test.keepPassing(pools, kept);
    return kept;
  }

  seed(): Int32Array | undefined {
    if (this.staticKey === undefined) return undefined;
    const registry = this.registry;
    if (this.passingVersion === registry.capabilityVersion) return this.passing;
    const live = registry.livePools();
    this.buffer.set(live);
    this.passing = this.buffer.subarray(0, this.keep(this.buffer, live.length));
    this.passingVersion = registry.capabilityVersion;
    return this.passing;
  }
}

const requirementSet = (
  registry: PoolStateRegistry,
  key: string,
  requirements: readonly CapabilityRequirement[],
): RequirementSet => {
  const all = cachesOf(registry).sets;
  let found = all.get(key);
  if (!found || found.capacity < registry.size) {
    if (!found && all.size >= MAX_CACHED) all.clear();
    found = new RequirementSet(registry, requirements, key);
    all.set(key, found);
  }
  return found;
};

/**
 * CapabilitiesFilter: every extra spec (after rewriting) must match the pool's as-reported
 * capabilities with Manila's operators (a missing or null capability fails). Each requirement is
 * matched once per distinct capability value, and the live pools passing a requirement set are
 * kept until the next report, so most decisions start from them without scanning.
 */
export const capabilitiesFilter: SchedulerFilter = {
  name: 'CapabilitiesFilter',
  prepare({ registry, requirements, requirementsKey }) {
    return requirements.length === 0
      ? null
      : requirementSet(registry, requirementsKey, requirements);
  },
};
