import { FreeCapacity } from '../pool-state/pool-columns.js';
import type { SchedulerFilter } from './scheduler-filter.js';

/**
 * CapacityFilter (reference 6.4): effective free space is floor(free - total * reserved), the
 * reserved percentage chosen by request kind; thin pools (when the type allows thin logic) are
 * bounded by max_over_subscription_ratio instead; 'unknown' capacities pass.
 */
export const capacityFilter: SchedulerFilter = {
  name: 'CapacityFilter',
  prepare({ request, columns, reservedFraction, useThinLogic }) {
    const size = request.size;
    const { totalGb, freeGb, freeState, thin, maxOverSubscriptionRatio, provisionedGb } = columns;
    return {
      keep(candidates, count) {
        let kept = 0;
        for (let i = 0; i < count; i++) {
          const pool = candidates[i] as number;
          const state = freeState[pool];
          if (state === FreeCapacity.Missing) continue;
          const reserved = reservedFraction[pool] as number;
          if (state === FreeCapacity.Unknown) {
            candidates[kept++] = pool;
            continue;
          }
          const freeSpace = freeGb[pool] as number;
          const total = totalGb[pool] as number;
          if (Number.isNaN(total)) {
            if (reserved === 0 && size <= freeSpace) candidates[kept++] = pool;
            continue;
          }
          if (total <= 0) continue;
          const free = Math.floor(freeSpace - total * reserved);
          if (useThinLogic && thin[pool] === 1) {
            const ratio = maxOverSubscriptionRatio[pool] as number;
            if (ratio < 1) continue;
            const provisionedRatio = ((provisionedGb[pool] as number) + size) / total;
            if (provisionedRatio > ratio) continue;
            if (free * ratio >= size) candidates[kept++] = pool;
            continue;
          }
          if (free >= size) candidates[kept++] = pool;
        }
        return kept;
      },
    };
  },
};
