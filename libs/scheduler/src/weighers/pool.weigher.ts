import type { SchedulerWeigher } from './scheduler-weigher.js';

/**
 * PoolWeigher (not a default weigher): 1 for a pool that holds a share server this share can
 * use, else 0; multiplier pool_weight_multiplier. The caller resolves which pools those are
 * (Manila reads server_pools_mapping and the share servers of each back end).
 */
export const poolWeigher: SchedulerWeigher = {
  name: 'PoolWeigher',
  multiplier: (config) => config.poolWeightMultiplier,
  prepare({ request, columns }) {
    if (request.shareServerPools.length === 0) return null;
    const withServer = new Set(request.shareServerPools);
    return {
      weigh(candidates, count, raw) {
        for (let i = 0; i < count; i++)
          raw[i] = withServer.has(columns.host[candidates[i] as number] as string) ? 1 : 0;
      },
    };
  },
};
