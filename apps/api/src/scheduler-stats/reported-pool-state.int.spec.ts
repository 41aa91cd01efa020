import { SimulatedShareDriver } from '#hawser/drivers';
import { InProcessCapabilityReports, loadConfig } from '#hawser/platform';
import { listPools } from '#hawser/scheduler';
import { lastReportOf } from './pool-state.source.js';
import { ReportedPoolState } from './reported-pool-state.js';

describe('the API pool state of the multi-process mode', () => {
  it('given a subscription to capability reports, when a node reports, then its pools are listed', async () => {
    const reports = new InProcessCapabilityReports();
    const state = new ReportedPoolState(loadConfig({ HAWSER_SERVICE_DOWN_TIME_S: '60' }), reports);
    const driver = new SimulatedShareDriver({
      name: 'node1@gold',
      driver: 'simulated',
      availabilityZone: 'az-9',
      pools: [{ name: 'p1', totalCapacityGb: 100 }],
      options: {},
    });
    const report = await driver.getPoolStats({ commandId: 'stats-1' });

    await reports.publish(report);

    expect(listPools(state.registry, Date.now()).map((p) => p.name)).toEqual(['node1@gold#p1']);
    expect(lastReportOf(state.registry, 'node1@gold')).toBe(
      Date.parse(String(report.pools[0]?.capabilities.timestamp)),
    );
    state.onApplicationShutdown();
    const later = new SimulatedShareDriver({
      name: 'node2@silver',
      driver: 'simulated',
      availabilityZone: 'az-9',
      pools: [{ name: 'p1', totalCapacityGb: 100 }],
      options: {},
    });
    await reports.publish(await later.getPoolStats({ commandId: 'stats-2' }));
    expect(listPools(state.registry, Date.now())).toHaveLength(1);
  });

  it('without a transport, knows no pool', () => {
    const state = new ReportedPoolState(loadConfig({}), undefined);
    expect(listPools(state.registry, Date.now())).toEqual([]);
  });
});
