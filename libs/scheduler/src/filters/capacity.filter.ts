import { capacityVariant, FreeCapacity, type PoolColumns } from '../pool-state/pool-columns.js';
import type { SchedulerFilter } from './scheduler-filter.js';

/**
 * CapacityFilter (reference 6.4): effective free space is floor(free - total * reserved), the
 * reserved percentage chosen by request kind; thin pools (when the type allows thin logic) are
 * bounded by max_over_subscription_ratio instead; 'unknown' capacities pass. Each pool's answer
 * is kept as bounds on the size (capacity-figures.ts), so most pools cost one comparison.
 */
export const capacityFilter: SchedulerFilter = {
  name: 'CapacityFilter',
  prepare({ request, columns, reserveKind, reservedFraction, useThinLogic }) {
    const size = request.size;
    const variant = capacityVariant(reserveKind, useThinLogic);
    const fitsUpTo = columns.fitsUpTo[variant] as Float64Array;
    const failsAbove = columns.failsAbove[variant] as Float64Array;
    return {
      keep: (candidates, count) =>
        keepFitting(candidates, count, size, fitsUpTo, failsAbove, (pool) =>
          fits(columns, pool, size, reservedFraction[pool] as number, useThinLogic),
        ),
    };
  },
};

/**
 * The pools whose bounds say they fit, and those the arithmetic admits between the bounds. A
 * module function, not a closure per request: its optimized code then outlives the requests.
 */
const keepFitting = (
  candidates: Int32Array,
  count: number,
  size: number,
  fitsUpTo: Float64Array,
  failsAbove: Float64Array,
  fitsBetween: (pool: number) => boolean,
): number => {
  let kept = 0;
  for (let i = 0; i < count; i++) {
    const pool = candidates[i] as number;
    if (
      size <= (fitsUpTo[pool] as number) ||
      (!(size > (failsAbove[pool] as number)) && fitsBetween(pool))
    )
      candidates[kept++] = pool;
  }
  return kept;
};

/** The filter's arithmetic itself, for the pools whose bounds leave the answer open. */
const fits = (
  columns: PoolColumns,
  pool: number,
  size: number,
  reserved: number,
  useThinLogic: boolean,
): boolean => {
  const state = columns.freeState[pool];
  if (state === FreeCapacity.Missing) return false;
  if (state === FreeCapacity.Unknown) return true;
  const freeSpace = columns.freeGb[pool] as number;
  const total = columns.totalGb[pool] as number;
  if (Number.isNaN(total)) return reserved === 0 && size <= freeSpace;
  if (total <= 0) return false;
  const free = Math.floor(freeSpace - total * reserved);
  if (useThinLogic && columns.thin[pool] === 1) {
    const ratio = columns.maxOverSubscriptionRatio[pool] as number;
    if (ratio < 1) return false;
    const provisionedRatio = ((columns.provisionedGb[pool] as number) + size) / total;
    if (provisionedRatio > ratio) return false;
    return free * ratio >= size;
  }
  return free >= size;
};
