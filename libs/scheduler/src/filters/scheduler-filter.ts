import type { SchedulingContext } from '../request/scheduling-context.js';

/** A filter prepared for one request. */
export interface PreparedFilter {
  /**
   * Keeps the pools that pass among `candidates[0..count)`, compacting them in place and in
   * order; returns how many remain.
   */
  keep(candidates: Int32Array, count: number): number;
  /**
   * The exact live pools this filter keeps, in enumeration order, when an index knows them
   * (lets the pipeline start from them instead of every pool).
   */
  seed?(): Int32Array | undefined;
  /** Why the filter keeps nothing at all, for the log (e.g. an unknown share in a hint). */
  readonly stopReason?: string;
  /**
   * Set when what `keep` keeps depends only on the pools' capabilities (not the registry's
   * VOLATILE_CAPABILITIES), zones and liveness and on this key (never on capacity or the
   * request's other fields): the pipeline then keeps the pools passing every such filter, and
   * redoes a back end's pools when its capabilityVersion stamp moves.
   */
  readonly staticKey?: string;
}

/** One of Manila's host filters, as a pure module. */
export interface SchedulerFilter {
  /** Manila's class name, as in scheduler_default_filters. */
  readonly name: string;
  /** Null when the request gives this filter nothing to check (every pool passes). */
  prepare(context: SchedulingContext): PreparedFilter | null;
}

/** A filter that removes every pool, with the reason. */
export const keepNothing = (stopReason: string): PreparedFilter => ({ keep: () => 0, stopReason });

/** For filters off the hot path: compacts by a per-pool predicate. */
export const keepWhere = (passes: (pool: number) => boolean): PreparedFilter => ({
  keep: (candidates, count) => compactWhere(candidates, count, passes),
});

/** A module function, not a closure per request, so its optimized code outlives the requests. */
const compactWhere = (
  candidates: Int32Array,
  count: number,
  passes: (pool: number) => boolean,
): number => {
  let kept = 0;
  for (let i = 0; i < count; i++) {
    const pool = candidates[i] as number;
    if (passes(pool)) candidates[kept++] = pool;
  }
  return kept;
};
