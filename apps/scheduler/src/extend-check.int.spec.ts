import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CommandHandler } from '#hawser/application';
import {
  capabilitiesOf,
  shareDecider,
  shareStream,
  type ShareRequested,
  activeShareOf,
} from '#hawser/domain';
import { SimulatedShareDriver, type SimulatedBackendOptions } from '#hawser/drivers';
import { SqliteEventStore, type RecordedEvent } from '#hawser/eventstore';
import { shareSchedulingProcessManager, type ProcessManager } from '#hawser/process-managers';
import { FilterScheduler, PoolStateRegistry } from '#hawser/scheduler';
import { FilterSchedulerPlacement, SCHEDULER_FILTERS } from './filter-scheduler.placement.js';

const BACKEND = 'node1@small';
const HOST = `${BACKEND}#p1`;
const POOL_GIB = 20;
const SHARE_GIB = 8;
const specs = { driver_handles_share_servers: 'False', thin_provisioning: 'False' };

/**
 * The scheduler's capacity check of a non-forced extend (reference 6.9), all real: SQLite log,
 * command handler, the scheduling workflow over the filter scheduler, pools reported by the
 * simulated driver. One 20 GiB pool holds an 8 GiB share (12 GiB free once placed).
 */
describe('the scheduler checks a non-forced extend on the share pool', () => {
  let dir: string;
  let events: SqliteEventStore;
  let commands: CommandHandler;
  let registry: PoolStateRegistry;
  let workflow: ProcessManager;

  const start = async (options: SimulatedBackendOptions = {}) => {
    const driver = new SimulatedShareDriver({
      name: BACKEND,
      driver: 'simulated',
      availabilityZone: 'az-1',
      pools: [{ name: 'p1', totalCapacityGb: POOL_GIB }],
      options,
    });
    await driver.initialize();
    const report = await driver.getPoolStats({ commandId: 'stats' });
    await driver.close();
    registry = new PoolStateRegistry({ serviceDownTimeMs: 3_600_000 });
    registry.report(
      report.backend,
      report.pools.map((p) => p.capabilities),
      Date.now() - 1000,
      report.availabilityZone,
    );
    const scheduler = new FilterScheduler(registry, { filters: SCHEDULER_FILTERS });
    workflow = shareSchedulingProcessManager(
      commands,
      new FilterSchedulerPlacement(registry, scheduler),
    );
  };

  const last = async (): Promise<RecordedEvent> =>
    (await events.readStream(shareStream('s1'))).at(-1)!;
  const freeGiB = () => registry.columns.freeGb[registry.poolIndex(HOST)!];

  /** An 8 GiB share placed on the pool and created, then an extend to `newSize` requested. */
  const extendTo = async (newSize: number): Promise<RecordedEvent> => {
    const request: ShareRequested['data'] = {
      shareId: 's1',
      instanceId: 'i1',
      projectId: 'p1',
      userId: 'u1',
      name: null,
      description: null,
      size: SHARE_GIB,
      shareProto: 'NFS',
      shareType: { id: 't1', name: 'thick', extraSpecs: specs },
      capabilities: capabilitiesOf(specs),
      availabilityZone: null,
      metadata: {},
      isPublic: false,
      snapshotId: null,
      schedulerHints: null,
      createdAt: new Date().toISOString(),
    };
    const scheduled = {
      instanceId: 'i1',
      host: HOST,
      availabilityZone: 'az-1',
      size: SHARE_GIB,
      scheduledAt: new Date().toISOString(),
    };
    const created = { instanceId: 'i1', commandId: 'c', exportLocations: [], createdAt: 'now' };
    await events.append(
      shareStream('s1'),
      [
        { id: 'requested', type: 'ShareRequested', data: request, metadata: {} },
        { id: 'scheduled', type: 'ShareScheduled', data: scheduled, metadata: {} },
        { id: 'created', type: 'ShareCreated', data: created, metadata: {} },
      ],
      { expectedRevision: 'no_stream' },
    );
    // The placement, as any scheduler hears of it: the pool is debited.
    await workflow.handle((await events.readStream(shareStream('s1')))[1]!);
    await commands.handle(
      shareDecider,
      shareStream('s1'),
      { type: 'ResizeShare', direction: 'extend', newSize, capacityCheck: true, now: 'now' },
      { commandId: 'extend-1' },
    );
    return last();
  };

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-extend-check-'));
    events = new SqliteEventStore({ file: path.join(dir, 'events.sqlite') });
    commands = new CommandHandler(events);
  });
  afterEach(async () => {
    await events.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('confirms an extend whose current size fits, and consumes the delta once', async () => {
    await start();
    // 8 -> 19 GiB: the filters see the current 8 GiB (Manila's quirk), which fits in 12 free.
    const requested = await extendTo(19);
    expect(freeGiB()).toBe(POOL_GIB - SHARE_GIB);
    await workflow.handle(requested);
    await workflow.handle(requested);
    const confirmed = await last();
    expect(confirmed.type).toBe('ShareExtendCapacityConfirmed');
    expect(confirmed.data).toMatchObject({ instanceIds: ['i1'], host: HOST, sizeDeltaGiB: 11 });
    await workflow.handle(confirmed);
    await workflow.handle(confirmed);
    expect(freeGiB()).toBe(POOL_GIB - 19);
    const state = activeShareOf((await commands.load(shareDecider, shareStream('s1'))).state);
    expect(state.pendingResize).toEqual({ direction: 'extend', newSize: 19 });
  });

  it('refuses by CapacityFilter with the extend reserve, not the creation reserve', async () => {
    // 50 % of 20 GiB kept back from extends: 12 - 10 = 2 GiB free, less than the current 8.
    await start({ reservedPercentage: 0, reservedShareExtendPercentage: 50 });
    const requested = await extendTo(9);
    await workflow.handle(requested);
    const refused = await last();
    expect(refused.type).toBe('ShareExtendRefused');
    expect(refused.data).toMatchObject({
      instanceIds: ['i1'],
      message: `No valid host was found. Cannot place share s1 on ${HOST}, the last executed filter was CapacityFilter.`,
      detail: {
        lastFilter: 'CapacityFilter',
        userMessage: {
          actionId: '008',
          detailId: '009',
          userMessage:
            "extend: No storage could be allocated for this share request, Capacity filter didn't succeed.",
        },
      },
    });
    const state = activeShareOf((await commands.load(shareDecider, shareStream('s1'))).state);
    expect([state.instances[0]?.status, state.size, state.pendingResize]).toEqual([
      'available',
      SHARE_GIB,
      null,
    ]);
    expect(freeGiB()).toBe(POOL_GIB - SHARE_GIB);
  });

  it('passes a pool whose creation reserve alone would refuse it', async () => {
    await start({ reservedPercentage: 50, reservedShareExtendPercentage: 0 });
    await workflow.handle(await extendTo(9));
    expect((await last()).type).toBe('ShareExtendCapacityConfirmed');
  });

  it("refuses by DriverFilter when the pool's filter function rejects the share", async () => {
    await start({ filterFunction: 'share.size < 5' });
    await workflow.handle(await extendTo(9));
    expect((await last()).data).toMatchObject({
      detail: { lastFilter: 'DriverFilter', userMessage: { actionId: '008', detailId: '010' } },
    });
  });
});
