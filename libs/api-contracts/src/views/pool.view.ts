import type { PoolView } from '#hawser/scheduler';

/** Manila's scheduler-stats pool (reference 1.9): the summary, and the detail with capabilities. */
export const poolSummaryView = (pool: PoolView) => ({
  name: pool.name,
  host: pool.host,
  backend: pool.backend,
  pool: pool.pool,
});

export const poolDetailView = (pool: PoolView) => ({
  ...poolSummaryView(pool),
  capabilities: pool.capabilities,
});
