import type { SharePlacementRejected, ActiveShare } from '#hawser/domain';
import { CompetingSchedulers } from './test-support/competing-schedulers.js';

const BACKEND = 'node1@thick';
const POOL_GIB = 100;
const specs = { driver_handles_share_servers: 'False', thin_provisioning: 'False' };

/** Two scheduler processes, one share node, one back end of four 100 GiB pools (see the harness). */
describe('two scheduler processes cannot overfill a pool', () => {
  let harness: CompetingSchedulers;
  let shareIds: string[];

  const requestShares = async (count: number, sizeGiB: number) => {
    for (let k = 0; k < count; k++) {
      const id = `s${String(shareIds.length).padStart(2, '0')}`;
      shareIds.push(id);
      await harness.requestShare({ id, sizeGiB, typeName: 'thick', extraSpecs: specs });
    }
  };

  const states = (): Promise<ActiveShare[]> => Promise.all(shareIds.map((id) => harness.share(id)));

  /** GiB of available shares per pool, from the log, and what the driver holds. */
  const expectNoPoolOverfilled = async (shares: ActiveShare[]) => {
    const placed = new Map<string, number>();
    for (const share of shares) {
      const instance = share.instances[0];
      if (instance?.status !== 'available') continue;
      placed.set(instance.host, (placed.get(instance.host) ?? 0) + share.size);
    }
    for (const gib of placed.values()) expect(gib).toBeLessThanOrEqual(POOL_GIB);
    const [report] = await harness.stats();
    for (const pool of report?.pools ?? []) {
      expect(pool.capabilities.allocated_capacity_gb).toBeLessThanOrEqual(POOL_GIB);
      expect(pool.capabilities.allocated_capacity_gb).toBe(placed.get(pool.name) ?? 0);
    }
  };

  beforeEach(async () => {
    harness = await CompetingSchedulers.start([
      {
        name: BACKEND,
        driver: 'simulated',
        availabilityZone: 'az-1',
        pools: ['p0', 'p1', 'p2', 'p3'].map((name) => ({ name, totalCapacityGb: POOL_GIB })),
        options: { thinProvisioning: false },
      },
    ]);
    shareIds = [];
  });
  afterEach(() => harness.close());

  it('places every share that fits on a pool with room, after the node hands back the double-booked ones', async () => {
    const reports = await harness.stats();
    harness.nodeObserves(reports);
    harness.startSchedulers(reports);
    // 4 pools x 100 GiB hold three 30 GiB shares each: twelve fit, two do not.
    await requestShares(14, 30);
    const log = await harness.runRounds();

    const rejections = log.filter((e) => e.type === 'SharePlacementRejected');
    expect(rejections.length).toBeGreaterThan(0); // both schedulers did pick the same pools
    expect(log.filter((e) => e.type === 'ShareCreationFailed')).toEqual([]); // the driver never had to refuse

    const shares = await states();
    const statuses = shares.map((s) => s.instances[0]?.status);
    expect(statuses.filter((s) => s === 'available')).toHaveLength(12);
    expect(statuses.filter((s) => s === 'error')).toHaveLength(2);
    await expectNoPoolOverfilled(shares);
    // A handed-back share that found room elsewhere did so on a pool that had not refused it.
    for (const event of rejections) {
      const data = event.data as SharePlacementRejected['data'];
      const share = shares.find((s) => s.instances[0]?.id === data.instanceId);
      if (share?.instances[0]?.status === 'available') {
        expect(data.attemptedHosts).not.toContain(share.instances[0].host);
      }
    }
  });

  it('fails a share refused by three pools with Manila\'s "Exceeded max scheduling attempts"', async () => {
    // The schedulers' last report shows empty pools; meanwhile each filled up.
    const stale = await harness.stats();
    const [driver] = harness.drivers;
    for (const pool of ['p0', 'p1', 'p2', 'p3']) {
      await driver?.createShare({
        commandId: `fill-${pool}`,
        share: {
          shareId: `fill-${pool}`,
          instanceId: `fill-${pool}`,
          sizeGiB: 90,
          protocol: 'NFS',
          host: `${BACKEND}#${pool}`,
        },
      });
    }
    harness.startSchedulers(stale);
    harness.nodeObserves(await harness.stats());
    await requestShares(1, 20);
    const log = await harness.runRounds();

    const rejected = log
      .filter((e) => e.type === 'SharePlacementRejected')
      .map((e) => (e.data as SharePlacementRejected['data']).host);
    expect(rejected).toHaveLength(3);
    expect(new Set(rejected).size).toBe(3);
    const failed = log.find((e) => e.type === 'ShareSchedulingFailed');
    expect(failed?.data).toMatchObject({
      message: 'No valid host was found. Exceeded max scheduling attempts 3 for share s00',
      detail: {
        attemptedHosts: rejected,
        userMessage: { actionId: '001', detailId: '002' },
      },
    });
    const [share] = await states();
    expect(share?.instances[0]).toMatchObject({ status: 'error', host: '' });
    const [report] = await harness.stats();
    expect(report?.pools.map((p) => p.capabilities.allocated_capacity_gb)).toEqual([
      90, 90, 90, 90,
    ]);
  });
});
