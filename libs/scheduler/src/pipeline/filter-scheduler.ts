import type { PreparedFilter, SchedulerFilter } from '../filters/scheduler-filter.js';
import type { PoolStateRegistry } from '../pool-state/pool-state-registry.js';
import { poolView } from '../pool-state/pool-view.js';
import { schedulingContext } from '../request/scheduling-context.js';
import type { SchedulingRequest } from '../request/scheduling-request.js';
import type { SchedulerWeigher } from '../weighers/scheduler-weigher.js';
import { highestOfOne, highestTotal, RawSummary, type Highest } from '../weighers/highest-total.js';
import { addNormalised, normalisedWeight } from '../weighers/normalise-weights.js';
import {
  hostFailedFiltersMessage,
  noValidHostMessage,
  noValidHostUserMessage,
} from './no-valid-host.js';
import { resolveFilter, resolveWeigher } from './scheduler-catalogue.js';
import { DEFAULT_SCHEDULER_CONFIG, type SchedulerConfig } from './scheduler-config.js';
import { StaticPoolSets } from './static-pool-sets.js';
import type {
  FilterOutcome,
  HostCheck,
  NoValidHost,
  Placement,
  SchedulingResult,
  WeightPart,
} from './scheduling-result.js';

/**
 * Manila's FilterScheduler over a PoolStateRegistry: filters in order over the live pools,
 * weighers with normalisation and multipliers, the first of the highest total wins (ties go
 * to the earliest pool), and the chosen pool is debited at once. Not reentrant: one decision
 * at a time per instance (it reuses its buffers so a decision allocates nothing per pool).
 */
export class FilterScheduler {
  readonly config: SchedulerConfig;
  private readonly filters: readonly SchedulerFilter[];
  private readonly extendFilters: readonly SchedulerFilter[];
  private readonly weighers: readonly SchedulerWeigher[];
  private candidates = new Int32Array(0);
  /** One raw-weight buffer per weigher, kept so the winner's parts can be reported. */
  private raw: Float64Array[] = [];
  /** Per weigher, its raw weights of the current decision, or null when it added nothing. */
  private readonly weighed: (Float64Array | null)[] = [];
  private totals = new Float64Array(0);
  /** Per weigher, the min and max raw weight of the current decision. */
  private readonly bounds: Float64Array;
  /** Per weigher, what one pass over its raw weights of the current decision told. */
  private readonly summaries: RawSummary[];
  /** Pools passing every static filter, by the filters' keys, kept up to date with reports. */
  private readonly staticSets: StaticPoolSets;

  constructor(
    private readonly registry: PoolStateRegistry,
    config: Partial<SchedulerConfig> = {},
  ) {
    this.config = { ...DEFAULT_SCHEDULER_CONFIG, ...config };
    this.filters = this.config.filters.map(resolveFilter);
    this.extendFilters = this.config.extendFilters.map(resolveFilter);
    this.weighers = this.config.weighers.map(resolveWeigher);
    this.bounds = new Float64Array(2 * this.weighers.length);
    this.summaries = this.weighers.map(() => new RawSummary());
    this.staticSets = new StaticPoolSets(registry);
    // Buffers for the pools known now; a registry that grows later gets larger ones on demand.
    this.ensureCapacity(registry.size);
  }

  /** Places one request at time `now` (ms) and debits the chosen pool by the share's size. */
  schedule(request: SchedulingRequest, now: number = Date.now()): SchedulingResult {
    const registry = this.registry;
    registry.refresh(now);
    const context = schedulingContext(registry, request, now);
    const live = registry.livePools();
    this.ensureCapacity(registry.size);
    const prepared = this.filters.map((filter) => filter.prepare(context));
    const count = this.filterCandidates(prepared);
    if (count === 0) return this.explainNoValidHost(prepared, live);
    return this.weighAndChoose(context, count, request, now);
  }

  /**
   * Prepares what requests like this one (share type, protocol, zones, new share, clone or
   * replica) start from, the pools passing the filters that read only capabilities, zones and
   * liveness, without placing anything: a scheduler primed with the share types it knows does
   * not pay for that on their first decisions. Later reports keep it up to date.
   */
  prime(request: SchedulingRequest, now: number = Date.now()): void {
    this.registry.refresh(now);
    const context = schedulingContext(this.registry, request, now);
    this.staticSets.pools(this.filters.map((filter) => filter.prepare(context)));
  }

  /**
   * Manila's host_passes_filters for an extend (reference 6.9): whether the share's own pool
   * `host` passes the extend filters for `request` (its size the share's current size). Debits
   * nothing: the caller consumes the extend's delta once the check is recorded. Filters run in
   * order on that pool alone, so a refusal names the filter that removed it.
   */
  hostPassesExtendFilters(
    request: SchedulingRequest,
    host: string,
    now: number = Date.now(),
  ): HostCheck {
    return this.hostPasses(this.extendFilters, request, host, now, '008');
  }

  /**
   * Manila's host_passes_filters for a migration's destination (reference 6.9): whether pool
   * `host` passes the default filters for `request`. Debits nothing.
   */
  hostPassesFilters(request: SchedulingRequest, host: string, now: number = Date.now()): HostCheck {
    return this.hostPasses(this.filters, request, host, now, '001');
  }

  /** The filters in order on one pool alone, so a refusal names the filter that removed it. */
  private hostPasses(
    filters: readonly SchedulerFilter[],
    request: SchedulingRequest,
    host: string,
    now: number,
    action: '001' | '008',
  ): HostCheck {
    const registry = this.registry;
    registry.refresh(now);
    const refused = (lastFilter: string | null): HostCheck => ({
      passes: false,
      lastFilter,
      message: hostFailedFiltersMessage(request.shareId, host, lastFilter),
      userMessage: noValidHostUserMessage(lastFilter, action),
    });
    const pool = registry.poolIndex(host);
    if (pool === undefined || !registry.isLive(pool)) return refused(null);
    const context = schedulingContext(registry, request, now);
    const candidates = Int32Array.of(pool);
    for (const filter of filters) {
      const prepared = filter.prepare(context);
      if (prepared && prepared.keep(candidates, 1) === 0) return refused(filter.name);
    }
    return { passes: true };
  }

  /**
   * Fills `candidates` with the pools passing every filter, in enumeration order. The surviving
   * set does not depend on filter order, so it starts from the pools passing every static filter
   * (kept up to date as reports arrive), or from a smaller index a filter offers, and runs the
   * remaining filters over it. Manila's per-filter counts are only needed when nothing survives;
   * explainNoValidHost then replays the filters in order.
   */
  private filterCandidates(prepared: readonly (PreparedFilter | null)[]): number {
    const candidates = this.candidates;
    const pools = this.staticSets.pools(prepared);
    let seedFilter = -1;
    let start = pools;
    for (let index = 0; index < prepared.length; index++) {
      const filter = prepared[index];
      if (!filter || filter.staticKey !== undefined) continue;
      const offered = filter.seed?.();
      if (offered && offered.length < start.length) {
        start = offered;
        seedFilter = index;
      }
    }
    candidates.set(start);
    let count = start.length;
    for (let index = 0; index < prepared.length && count > 0; index++) {
      const filter = prepared[index];
      if (!filter || index === seedFilter) continue;
      // Static filters are already applied, unless a smaller dynamic seed replaced their pools.
      if (filter.staticKey !== undefined && seedFilter === -1) continue;
      count = filter.keep(candidates, count);
    }
    return count;
  }

  /** Runs the filters in configured order from every live pool, as Manila does, to tell who removed what. */
  private explainNoValidHost(
    prepared: readonly (PreparedFilter | null)[],
    live: Int32Array,
  ): NoValidHost {
    const candidates = this.candidates;
    candidates.set(live);
    let count = live.length;
    const outcomes: FilterOutcome[] = [];
    let lastFilter: string | null = this.filters[0]?.name ?? null;
    let reason: string | null = null;
    for (let index = 0; index < prepared.length; index++) {
      const filter = prepared[index];
      const before = count;
      if (filter) count = filter.keep(candidates, count);
      lastFilter = (this.filters[index] as SchedulerFilter).name;
      outcomes.push({ filter: lastFilter, before, removed: before - count });
      if (count === 0) {
        reason = filter?.stopReason ?? null;
        break;
      }
    }
    return {
      outcome: 'no-valid-host',
      lastFilter,
      filters: outcomes,
      message: noValidHostMessage(lastFilter),
      userMessage: noValidHostUserMessage(lastFilter),
      reason,
    };
  }

  private weighAndChoose(
    context: ReturnType<typeof schedulingContext>,
    count: number,
    request: SchedulingRequest,
    now: number,
  ): Placement {
    const { candidates, weighed, summaries } = this;
    // The one weigher whose raw weights differ (the others add nothing), -2 when several do.
    let adding = -1;
    for (let index = 0; index < this.weighers.length; index++) {
      const weigher = this.weighers[index] as SchedulerWeigher;
      const prepared = weigher.prepare(context, this.config);
      if (prepared === null) {
        weighed[index] = null;
        continue;
      }
      const raw = this.raw[index] as Float64Array;
      prepared.weigh(candidates, count, raw);
      const summary = summaries[index] as RawSummary;
      summary.read(raw, count, weigher.multiplier(this.config) >= 0);
      this.bounds[2 * index] = summary.min;
      this.bounds[2 * index + 1] = summary.max;
      weighed[index] = raw;
      if (summary.min !== summary.max) adding = adding === -1 ? index : -2;
    }
    const only = adding >= 0 ? (this.weighers[adding] as SchedulerWeigher) : null;
    const { best, weight, ties, runnerUp } =
      (only && highestOfOne(summaries[adding] as RawSummary, only.multiplier(this.config))) ??
      this.highestByTotals(count);

    const pool = candidates[best] as number;
    this.registry.debit(pool, request.size, now);
    this.registry.markConsumed(pool, request.shareId);
    const host = this.registry.columns.host[pool] as string;
    const weights: WeightPart[] = this.weighers.map((weigher, index) => {
      const values = weighed[index];
      return {
        weigher: weigher.name,
        multiplier: weigher.multiplier(this.config),
        raw: values ? (values[best] as number) : 0,
        normalised: values ? normalisedWeight(values[best] as number, this.bounds, index) : 0,
      };
    });
    return {
      outcome: 'placed',
      host,
      backend: this.registry.backendName(this.registry.columns.backendIndex[pool] as number),
      pool: poolView(this.registry, pool),
      weight,
      runnerUpWeight: count === 1 ? null : ties > 1 ? weight : runnerUp,
      topTies: ties,
      candidates: count,
      weights,
    };
  }

  /** Every candidate's total, summed as Manila does, and the first highest among them. */
  private highestByTotals(count: number): Highest {
    const totals = this.totals;
    totals.fill(0, 0, count);
    for (let index = 0; index < this.weighers.length; index++) {
      const raw = this.weighed[index];
      if (!raw) continue;
      const multiplier = (this.weighers[index] as SchedulerWeigher).multiplier(this.config);
      addNormalised(raw, count, multiplier, totals, this.bounds, index);
    }
    return highestTotal(totals, count);
  }

  /**
   * Writing the new buffers once maps their memory in now: left to the first decisions that
   * reach that far, the page faults cost milliseconds on a busy machine.
   */
  private ensureCapacity(size: number): void {
    if (this.candidates.length >= size) return;
    this.candidates = new Int32Array(size).fill(0);
    this.raw = this.weighers.map(() => new Float64Array(size).fill(0));
    this.totals = new Float64Array(size).fill(0);
  }
}
