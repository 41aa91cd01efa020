import type {
  ReplicaPlacementRejected,
  ReplicaSchedulingFailed,
  ShareInstanceState,
} from '#hawser/domain';
import type { RecordedEvent } from '#hawser/eventstore';
import { CompetingSchedulers } from './test-support/competing-schedulers.js';

const HOME = 'node1@home';
const TIGHT = 'node1@tight';
const POOL_GIB = 100;
const TIGHT_POOLS = ['p1', 'p2', 'p3'].map((pool) => `${TIGHT}#${pool}`);
const thick = { driver_handles_share_servers: 'False', thin_provisioning: 'False' };
const readable = { ...thick, replication_type: 'readable' };

/**
 * Replicas placed by two scheduler processes (see the harness): the shares' active replicas
 * live on a big pool in az-1; their new replicas, and plain shares competing with them, go to
 * three 100 GiB pools in az-2 of the same replication domain, which hold nine 30 GiB instances.
 */
describe('two scheduler processes cannot overfill a pool with replicas', () => {
  let harness: CompetingSchedulers;

  beforeEach(async () => {
    harness = await CompetingSchedulers.start([
      {
        name: HOME,
        driver: 'simulated',
        availabilityZone: 'az-1',
        replicationDomain: 'rd',
        pools: [{ name: 'home', totalCapacityGb: 1000 }],
        options: { thinProvisioning: false },
      },
      {
        name: TIGHT,
        driver: 'simulated',
        availabilityZone: 'az-2',
        replicationDomain: 'rd',
        pools: ['p1', 'p2', 'p3'].map((name) => ({ name, totalCapacityGb: POOL_GIB })),
        options: { thinProvisioning: false },
      },
    ]);
  });
  afterEach(() => harness.close());

  /** Replicated shares of these sizes (GiB), available on the home pool. */
  const replicatedShares = async (sizes: readonly number[]): Promise<string[]> => {
    const ids = sizes.map((_, k) => `r${String(k).padStart(2, '0')}`);
    for (const [k, id] of ids.entries()) {
      await harness.requestShare({
        id,
        sizeGiB: sizes[k] ?? 0,
        typeName: 'readable',
        extraSpecs: readable,
        availabilityZone: 'az-1',
      });
    }
    await harness.runRounds();
    for (const id of ids) {
      expect((await harness.share(id)).instances[0]).toMatchObject({
        status: 'available',
        replicaState: 'active',
        host: `${HOME}#home`,
      });
    }
    return ids;
  };

  const replicaOf = async (shareId: string): Promise<ShareInstanceState | undefined> =>
    (await harness.share(shareId)).instances.find((i) => i.id === `${shareId}-replica`);

  /** What the log shows on each tight pool, and what the driver holds there: never over 100. */
  const expectTightPoolsNotOverfilled = async (onTight: readonly ShareInstanceState[]) => {
    const placed = new Map<string, number>();
    for (const instance of onTight) {
      if (instance.status !== 'available') continue;
      placed.set(instance.host, (placed.get(instance.host) ?? 0) + 30);
    }
    const tight = (await harness.stats()).find((r) => r.backend === TIGHT);
    expect(tight?.pools).toHaveLength(3);
    for (const pool of tight?.pools ?? []) {
      expect(pool.capabilities.allocated_capacity_gb).toBeLessThanOrEqual(POOL_GIB);
      expect(pool.capabilities.allocated_capacity_gb).toBe(placed.get(pool.name) ?? 0);
    }
  };

  /** A replica handed back and then placed did so on a pool that had not refused it. */
  const expectRetriesAvoidRefusingPools = async (log: readonly RecordedEvent[]) => {
    for (const event of log.filter((e) => e.type === 'ReplicaPlacementRejected')) {
      const data = event.data as ReplicaPlacementRejected['data'];
      const shareId = data.replicaId.replace(/-replica$/, '');
      const replica = await replicaOf(shareId);
      if (replica?.status === 'available') expect(data.attemptedHosts).not.toContain(replica.host);
    }
  };

  /** A replica that found no room is error/error with Manila's NoValidHost and user message. */
  const expectFailedLikeManila = (log: readonly RecordedEvent[], replicaId: string) => {
    const failed = log.find(
      (e) =>
        e.type === 'ReplicaSchedulingFailed' &&
        (e.data as ReplicaSchedulingFailed['data']).replicaId === replicaId,
    );
    const data = failed?.data as ReplicaSchedulingFailed['data'];
    expect(data.message).toMatch(/^No valid host was found\. /);
    expect(data.detail.userMessage).toMatchObject({
      actionId: '001',
      userMessage: expect.stringMatching(/^allocate host: No storage could be allocated/),
    });
  };

  it('builds every replica that fits, after the node hands back the double-booked ones', async () => {
    const reports = await harness.stats();
    harness.nodeObserves(reports);
    harness.startSchedulers(reports);
    const shareIds = await replicatedShares(Array(12).fill(30));
    for (const id of shareIds) await harness.requestReplica(id, `${id}-replica`, 'az-2');
    const log = await harness.runRounds();

    // Both schedulers did pick the same pools; the driver never had to refuse a replica.
    expect(log.filter((e) => e.type === 'ReplicaPlacementRejected').length).toBeGreaterThan(0);
    expect(log.filter((e) => e.type === 'ReplicaCreationFailed')).toEqual([]);

    const replicas = await Promise.all(shareIds.map(replicaOf));
    const available = replicas.filter((r) => r?.status === 'available');
    const failed = replicas.filter((r) => r?.status === 'error');
    expect(available).toHaveLength(9);
    expect(failed).toHaveLength(3);
    for (const replica of available) {
      expect(TIGHT_POOLS).toContain(replica?.host);
      expect(replica?.replicaState).toBe('in_sync');
    }
    for (const replica of failed) {
      expect(replica).toMatchObject({ host: '', replicaState: 'error' });
      expectFailedLikeManila(log, replica?.id ?? '');
    }
    await expectTightPoolsNotOverfilled(replicas.flatMap((r) => (r ? [r] : [])));
    await expectRetriesAvoidRefusingPools(log);
  });

  it('never overfills a pool when shares and replicas are placed at the same time', async () => {
    const reports = await harness.stats();
    harness.nodeObserves(reports);
    harness.startSchedulers(reports);
    const shareIds = await replicatedShares(Array(6).fill(30));
    // Six replicas and six plain shares, dealt in turn, for nine places.
    for (const [k, id] of shareIds.entries()) {
      await harness.requestReplica(id, `${id}-replica`, 'az-2');
      await harness.requestShare({
        id: `s${k}`,
        sizeGiB: 30,
        typeName: 'thick',
        extraSpecs: thick,
        availabilityZone: 'az-2',
      });
    }
    const log = await harness.runRounds();

    const rejections = log.filter(
      (e) => e.type === 'ReplicaPlacementRejected' || e.type === 'SharePlacementRejected',
    );
    expect(rejections.length).toBeGreaterThan(0);
    expect(
      log.filter((e) => e.type === 'ReplicaCreationFailed' || e.type === 'ShareCreationFailed'),
    ).toEqual([]);

    const replicas = (await Promise.all(shareIds.map(replicaOf))).flatMap((r) => (r ? [r] : []));
    const shares = await Promise.all(shareIds.map((_, k) => harness.share(`s${k}`)));
    const plain = shares.flatMap((s) => s.instances);
    const onTight = [...replicas, ...plain];
    expect(onTight.filter((i) => i.status === 'available')).toHaveLength(9);
    expect(onTight.filter((i) => i.status === 'error')).toHaveLength(3);
    for (const replica of replicas.filter((r) => r.status === 'error')) {
      expect(replica.replicaState).toBe('error');
      expectFailedLikeManila(log, replica.id);
    }
    await expectTightPoolsNotOverfilled(onTight);
    await expectRetriesAvoidRefusingPools(log);
  });

  it('fails a replica refused by three pools with Manila\'s "Exceeded max scheduling attempts"', async () => {
    // The schedulers' last report shows the tight pools empty; meanwhile each filled up.
    const stale = await harness.stats();
    harness.nodeObserves(stale);
    harness.startSchedulers(stale);
    const [shareId = ''] = await replicatedShares([20]);
    const tight = harness.drivers.find((d) => d.backend === TIGHT);
    for (const host of TIGHT_POOLS) {
      await tight?.createShare({
        commandId: `fill-${host}`,
        share: {
          shareId: `fill-${host}`,
          instanceId: `fill-${host}`,
          sizeGiB: 90,
          protocol: 'NFS',
          host,
        },
      });
    }
    harness.nodeObserves(await harness.stats());
    await harness.requestReplica(shareId, `${shareId}-replica`, null);
    const log = await harness.runRounds();

    const rejected = log
      .filter((e) => e.type === 'ReplicaPlacementRejected')
      .map((e) => (e.data as ReplicaPlacementRejected['data']).host);
    expect(rejected).toHaveLength(3);
    expect(new Set(rejected)).toEqual(new Set(TIGHT_POOLS));
    const failed = log.find((e) => e.type === 'ReplicaSchedulingFailed');
    expect(failed?.data).toMatchObject({
      replicaId: `${shareId}-replica`,
      message: `No valid host was found. Exceeded max scheduling attempts 3 for share ${shareId}`,
      detail: {
        attemptedHosts: rejected,
        userMessage: {
          actionId: '001',
          detailId: '002',
          userMessage:
            'allocate host: No storage could be allocated for this share request. Trying again with a different size or share type may succeed.',
        },
      },
    });
    expect(await replicaOf(shareId)).toMatchObject({
      status: 'error',
      replicaState: 'error',
      host: '',
      availabilityZone: null,
    });
    const report = (await harness.stats()).find((r) => r.backend === TIGHT);
    expect(report?.pools.map((p) => p.capabilities.allocated_capacity_gb)).toEqual([90, 90, 90]);
  });

  it("releases a replica's reservation once its creation failed, or once a report shows it", async () => {
    const P1 = TIGHT_POOLS[0] ?? '';
    /** Node and schedulers measure the pools again, as every report interval. */
    const report = async () => {
      const reports = await harness.stats();
      harness.nodeObserves(reports);
      harness.startSchedulers(reports);
    };
    await report();
    const [a = '', b = '', c = ''] = await replicatedShares([40, 60, 60]);
    harness.drivers
      .find((d) => d.backend === TIGHT)
      ?.injectFailure({ operation: 'createReplica', nthCall: 1, userMessage: 'disk on fire' });

    // B's replica is accepted on P1 (60 GiB reserved), then its creation fails.
    await harness.requestReplica(b, `${b}-replica`, null, P1);
    const failed = await harness.runRounds();
    expect(failed.map((e) => e.type)).toContain('ReplicaCreationFailed');
    // A report after the failure drops B's reservation: C's 60 GiB replica fits.
    await report();
    await harness.requestReplica(c, `${c}-replica`, null, P1);
    await harness.runRounds();
    expect(await replicaOf(c)).toMatchObject({ status: 'available', host: P1 });
    // The next report shows C's replica and drops its reservation: A's 40 GiB fit exactly.
    await report();
    await harness.requestReplica(a, `${a}-replica`, null, P1);
    const last = await harness.runRounds();
    expect(last.map((e) => e.type)).not.toContain('ReplicaPlacementRejected');
    expect(await replicaOf(a)).toMatchObject({ status: 'available', host: P1 });
    const tight = (await harness.stats()).find((r) => r.backend === TIGHT);
    expect(tight?.pools[0]?.capabilities.allocated_capacity_gb).toBe(100);
  });
});
