import type { PoolStateRegistry } from '#hawser/scheduler';

/**
 * Where the API reads pool state for the admin views (pools, services): the scheduler's own
 * registry when the scheduler runs in this process, else a registry the API keeps from the
 * same capability reports.
 */
export interface PoolStateSource {
  readonly registry: PoolStateRegistry;
  /** True when the registry is the in-process scheduler's (so the scheduler is running). */
  readonly schedulerInProcess: boolean;
}

export const POOL_STATE_SOURCE = Symbol('POOL_STATE_SOURCE');

/** Last report time (ms) of a back end, from its pools' report timestamps; undefined if none. */
export const lastReportOf = (registry: PoolStateRegistry, backend: string): number | undefined => {
  const backendIndex = registry.backendIndex(backend);
  if (backendIndex === undefined) return undefined;
  const columns = registry.columns;
  let last: number | undefined;
  for (let pool = 0; pool < registry.size; pool += 1) {
    if (columns.backendIndex[pool] !== backendIndex) continue;
    const reportedAt = columns.reportedAt[pool] as number;
    if (last === undefined || reportedAt > last) last = reportedAt;
  }
  return last;
};
