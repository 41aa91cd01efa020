import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CommandHandler } from '#hawser/application';
import {
  capabilitiesOf,
  shareDecider,
  shareStream,
  type SharePlacementRejected,
  type ShareState,
} from '#hawser/domain';
import { SimulatedShareDriver, type BackendStatsReport } from '#hawser/drivers';
import { SqliteEventStore, type RecordedEvent } from '#hawser/eventstore';
import {
  PlacementAdmission,
  ShareDriverOperations,
  shareNodeOperationsProcessManager,
  shareSchedulingProcessManager,
  type ProcessManager,
} from '#hawser/process-managers';
import { FilterScheduler, PoolStateRegistry } from '#hawser/scheduler';
import { FilterSchedulerPlacement, SCHEDULER_FILTERS } from './filter-scheduler.placement.js';

const BACKEND = 'node1@thick';
const POOL_GIB = 100;
const specs = { driver_handles_share_servers: 'False', thin_provisioning: 'False' };

/** One scheduler process: its own registry, fed by the node's reports and the log. */
interface Scheduler {
  readonly registry: PoolStateRegistry;
  readonly workflow: ProcessManager;
  /** ShareScheduled events recorded by the other scheduler, not heard of yet. */
  readonly unheard: RecordedEvent[];
}

/**
 * Two scheduler processes over one log and one share node, all real: SQLite log, command
 * handler, both schedulers' workflows with their own pool registries, the node's workflow with
 * its placement check, the simulated driver enforcing capacity. Requests are dealt alternately
 * to the schedulers (competing consumers), and each hears of the other's placements only at
 * the end of a round (the log's propagation delay): within a round both fill the same emptiest
 * pools. The node hands back what no longer fits; the owner places it again.
 */
describe('two scheduler processes cannot overfill a pool', () => {
  let dir: string;
  let events: SqliteEventStore;
  let commands: CommandHandler;
  let driver: SimulatedShareDriver;
  let admission: PlacementAdmission;
  let node: ProcessManager;
  let schedulers: Scheduler[];
  let shareIds: string[];

  const stats = () => driver.getPoolStats({ commandId: `stats-${Date.now()}` });

  const scheduler = (events: SqliteEventStore, report: BackendStatsReport): Scheduler => {
    const registry = new PoolStateRegistry({ serviceDownTimeMs: 3_600_000 });
    registry.report(
      report.backend,
      report.pools.map((p) => p.capabilities),
      Date.parse(report.pools[0]?.capabilities.timestamp ?? ''),
      report.availabilityZone,
    );
    const placement = new FilterSchedulerPlacement(
      registry,
      new FilterScheduler(registry, { filters: SCHEDULER_FILTERS }),
    );
    return {
      registry,
      workflow: shareSchedulingProcessManager(commands, placement, events),
      unheard: [],
    };
  };

  const requestShares = async (count: number, sizeGiB: number) => {
    for (let k = 0; k < count; k++) {
      const id = `s${String(shareIds.length).padStart(2, '0')}`;
      shareIds.push(id);
      await commands.handle(
        shareDecider,
        shareStream(id),
        {
          type: 'RequestShare',
          shareId: id,
          instanceId: `${id}-i`,
          projectId: 'p1',
          userId: 'u1',
          name: null,
          description: null,
          size: sizeGiB,
          shareProto: 'NFS',
          shareType: { id: 't1', name: 'thick', extraSpecs: specs },
          capabilities: capabilitiesOf(specs),
          availabilityZone: null,
          metadata: {},
          isPublic: false,
          snapshotId: null,
          schedulerHints: null,
          createdAt: new Date().toISOString(),
        },
        { commandId: `request-${id}` },
      );
    }
  };

  /** Runs rounds until the log is quiet; returns every event handed out. */
  const runRounds = async (): Promise<RecordedEvent[]> => {
    const seen: RecordedEvent[] = [];
    let after = 0;
    for (let round = 0; round < 20; round++) {
      const batch = await events.readAll({ after });
      if (batch.length === 0) return seen;
      for (const event of batch) {
        seen.push(event);
        after = event.position;
        const owner = schedulers[shareIds.indexOf(event.streamId.slice(6)) % 2] as Scheduler;
        if (event.type === 'ShareScheduled') {
          // The owner recorded it; the other scheduler hears of it after this round.
          await owner.workflow.handle(event);
          for (const other of schedulers) if (other !== owner) other.unheard.push(event);
        } else {
          await owner.workflow.handle(event);
        }
        await node.handle(event);
      }
      for (const other of schedulers) {
        for (const event of other.unheard.splice(0)) await other.workflow.handle(event);
      }
    }
    throw new Error('the workflow did not settle in 20 rounds');
  };

  const states = async (): Promise<ShareState[]> =>
    Promise.all(
      shareIds.map(async (id) => (await commands.load(shareDecider, shareStream(id))).state),
    );

  /** GiB of available shares per pool, from the log, and what the driver holds. */
  const expectNoPoolOverfilled = async (shares: ShareState[]) => {
    const placed = new Map<string, number>();
    for (const share of shares) {
      const instance = share.instances[0];
      if (instance?.status !== 'available') continue;
      placed.set(instance.host, (placed.get(instance.host) ?? 0) + share.size);
    }
    for (const gib of placed.values()) expect(gib).toBeLessThanOrEqual(POOL_GIB);
    for (const pool of (await stats()).pools) {
      expect(pool.capabilities.allocated_capacity_gb).toBeLessThanOrEqual(POOL_GIB);
      expect(pool.capabilities.allocated_capacity_gb).toBe(placed.get(pool.name) ?? 0);
    }
  };

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-two-schedulers-'));
    events = new SqliteEventStore({ file: path.join(dir, 'events.sqlite') });
    commands = new CommandHandler(events);
    driver = new SimulatedShareDriver({
      name: BACKEND,
      driver: 'simulated',
      availabilityZone: 'az-1',
      pools: ['p0', 'p1', 'p2', 'p3'].map((name) => ({ name, totalCapacityGb: POOL_GIB })),
      options: { thinProvisioning: false },
    });
    await driver.initialize();
    admission = new PlacementAdmission(commands);
    const operations = new ShareDriverOperations(commands, new Map([[BACKEND, driver]]));
    node = shareNodeOperationsProcessManager('node1', operations, admission);
    shareIds = [];
  });
  afterEach(async () => {
    await driver.close();
    await events.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const startWith = async (report: BackendStatsReport) => {
    admission.observe(report, Date.now());
    schedulers = [scheduler(events, report), scheduler(events, report)];
  };

  it('places every share that fits on a pool with room, after the node hands back the double-booked ones', async () => {
    await startWith(await stats());
    // 4 pools x 100 GiB hold three 30 GiB shares each: twelve fit, two do not.
    await requestShares(14, 30);
    const log = await runRounds();

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
    const stale = await stats();
    for (const pool of ['p0', 'p1', 'p2', 'p3']) {
      await driver.createShare({
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
    await startWith(stale);
    admission.observe(await stats(), Date.now());
    await requestShares(1, 20);
    const log = await runRounds();

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
    expect((await stats()).pools.map((p) => p.capabilities.allocated_capacity_gb)).toEqual([
      90, 90, 90, 90,
    ]);
  });
});
