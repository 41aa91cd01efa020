import { capacityVariant, FreeCapacity } from '../pool-state/pool-columns.js';
import type { SchedulerWeigher } from './scheduler-weigher.js';

/**
 * CapacityWeigher (reference 6.5): the effective free space, floor(free - total * reserved), or
 * for thin pools floor(total * ratio - provisioned - total * reserved); positive multipliers
 * spread, negative ones stack. 'unknown' capacities weigh just below (or above) every other pool.
 * The weights are computed when a report or a placement changes a pool (capacity-figures.ts).
 */
export const capacityWeigher: SchedulerWeigher = {
  name: 'CapacityWeigher',
  multiplier: (config) => config.capacityWeightMultiplier,
  prepare({ columns, reserveKind, useThinLogic }, config) {
    const unknownWeight = config.capacityWeightMultiplier > 0 ? -Infinity : Infinity;
    const weights = columns.capacityWeight[capacityVariant(reserveKind, useThinLogic)];
    const { totalGb, freeState } = columns;
    return {
      weigh(candidates, count, raw) {
        if (!gatherWeights(candidates, count, weights as Float64Array, raw)) return;
        let sawUnknown = false;
        for (let i = 0; i < count; i++) {
          const pool = candidates[i] as number;
          if (
            Number.isNaN(raw[i]) &&
            (Number.isNaN(totalGb[pool]) || freeState[pool] === FreeCapacity.Unknown)
          ) {
            raw[i] = unknownWeight;
            sawUnknown = true;
          }
        }
        if (sawUnknown) replaceInfinities(raw, count, unknownWeight);
      },
    };
  },
};

/**
 * Copies the candidates' precomputed weights; true when one is NaN ('unknown' capacity, or a
 * missing free figure). A module function so its optimized code outlives the requests.
 */
const gatherWeights = (
  candidates: Int32Array,
  count: number,
  weights: Float64Array,
  raw: Float64Array,
): boolean => {
  let sawNaN = false;
  for (let i = 0; i < count; i++) {
    const weight = weights[candidates[i] as number] as number;
    raw[i] = weight;
    if (weight !== weight) sawNaN = true;
  }
  return sawNaN;
};

/** -inf becomes (smallest finite - 1), +inf (largest finite + 1), as Manila's weigh_objects does. */
const replaceInfinities = (raw: Float64Array, count: number, infinity: number): void => {
  let bound = infinity < 0 ? Infinity : -Infinity;
  for (let i = 0; i < count; i++) {
    const weight = raw[i] as number;
    if (weight === infinity) continue;
    if (infinity < 0 ? weight < bound : weight > bound) bound = weight;
  }
  if (!Number.isFinite(bound)) return;
  const replacement = infinity < 0 ? bound - 1 : bound + 1;
  for (let i = 0; i < count; i++) if (raw[i] === infinity) raw[i] = replacement;
};
