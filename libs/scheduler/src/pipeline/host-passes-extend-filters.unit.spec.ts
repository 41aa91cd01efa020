import { pool, registryWith, request } from '../test-support/scheduler-fixtures.js';
import { FilterScheduler } from './filter-scheduler.js';

/** Manila's host_passes_filters for an extend (reference 6.9), on one pool of two. */
describe('FilterScheduler.hostPassesExtendFilters', () => {
  const registry = () =>
    registryWith([
      {
        backend: 'h@be',
        pools: [
          pool('full', { free_capacity_gb: 120, reserved_share_extend_percentage: 10 }),
          pool('roomy', { free_capacity_gb: 500, filter_function: 'share.size < 50' }),
        ],
      },
    ]);
  const extend = (size: number) => request({ shareId: 's1', size, isShareExtend: true });

  it("checks the share's own pool with the extend reserve, and debits nothing", () => {
    const pools = registry();
    const scheduler = new FilterScheduler(pools);
    // 120 free - 10 % of 1000 = 20 GiB for extends.
    expect(scheduler.hostPassesExtendFilters(extend(20), 'h@be#full', 1)).toEqual({
      passes: true,
    });
    expect(scheduler.hostPassesExtendFilters(extend(21), 'h@be#full', 1)).toEqual({
      passes: false,
      lastFilter: 'CapacityFilter',
      message:
        'No valid host was found. Cannot place share s1 on h@be#full, the last executed filter was CapacityFilter.',
      userMessage: {
        actionId: '008',
        detailId: '009',
        userMessage:
          "extend: No storage could be allocated for this share request, Capacity filter didn't succeed.",
      },
    });
    expect(pools.columns.freeGb[pools.poolIndex('h@be#full')!]).toBe(120);
  });

  it("refuses by DriverFilter when the pool's filter function says no", () => {
    const scheduler = new FilterScheduler(registry());
    expect(scheduler.hostPassesExtendFilters(extend(49), 'h@be#roomy', 1).passes).toBe(true);
    expect(scheduler.hostPassesExtendFilters(extend(50), 'h@be#roomy', 1)).toMatchObject({
      passes: false,
      lastFilter: 'DriverFilter',
      userMessage: { actionId: '008', detailId: '010' },
    });
  });

  it('refuses a pool it does not know, naming no filter', () => {
    const check = new FilterScheduler(registry()).hostPassesExtendFilters(
      extend(1),
      'h@be#gone',
      1,
    );
    expect(check).toMatchObject({
      passes: false,
      lastFilter: null,
      userMessage: { actionId: '008', detailId: '002' },
    });
  });
});
