import type { PoolView } from '#hawser/scheduler';
import { poolDetailView, poolSummaryView } from './pool.view.js';
import { keysOf } from './test-support/view-context.js';

const pool = {
  name: 'node1@local#pool0',
  host: 'node1',
  backend: 'local',
  pool: 'pool0',
  availabilityZone: 'nova',
  capabilities: { pool_name: 'pool0', total_capacity_gb: 100, free_capacity_gb: 90 },
} as Partial<PoolView> as PoolView;

describe('scheduler-stats pool views (reference 1.9)', () => {
  it('summary is {name, host, backend, pool}', () => {
    expect(poolSummaryView(pool)).toEqual({
      name: 'node1@local#pool0',
      host: 'node1',
      backend: 'local',
      pool: 'pool0',
    });
  });

  it('detail adds the capabilities and nothing of Hawser own (no zone, no live state)', () => {
    expect(keysOf(poolDetailView(pool))).toEqual([
      'backend',
      'capabilities',
      'host',
      'name',
      'pool',
    ]);
    expect(poolDetailView(pool).capabilities).toEqual(pool.capabilities);
  });
});
