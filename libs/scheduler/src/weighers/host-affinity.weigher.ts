import type { PoolColumns } from '../pool-state/pool-columns.js';
import { parsePoolHost } from '../pool-state/pool-host.js';
import type { SchedulerWeigher } from './scheduler-weigher.js';

/**
 * HostAffinityWeigher (reference 4.4), for clones only: 100 on the snapshot's pool, 75 on its
 * back end, otherwise 50 when the source share's AZ is the requested AZ, else 25.
 */
export const hostAffinityWeigher: SchedulerWeigher = {
  name: 'HostAffinityWeigher',
  multiplier: () => 1,
  prepare({ request, registry, columns }) {
    const snapshot = request.snapshot;
    if (!snapshot || !request.snapshotId) return null;
    const source = parsePoolHost(snapshot.host);
    const sourceBackend = registry.backendIndex(source.backend) ?? -1;
    const sourcePool = source.pool;
    const sourceZone = snapshot.shareAvailabilityZone;
    const otherBackend = sourceZone && sourceZone === request.availabilityZone ? 50 : 25;
    return {
      weigh: (candidates, count, raw) =>
        weighNearSource(candidates, count, raw, columns, sourceBackend, sourcePool, otherBackend),
    };
  },
};

/** A module function, not a closure per request, so its optimized code outlives the requests. */
const weighNearSource = (
  candidates: Int32Array,
  count: number,
  raw: Float64Array,
  { backendIndex, poolName }: PoolColumns,
  sourceBackend: number,
  sourcePool: string | null,
  otherBackend: number,
): void => {
  for (let i = 0; i < count; i++) {
    const pool = candidates[i] as number;
    if (backendIndex[pool] !== sourceBackend) raw[i] = otherBackend;
    else raw[i] = sourcePool && sourcePool === poolName[pool] ? 100 : 75;
  }
};
