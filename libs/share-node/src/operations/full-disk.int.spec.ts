import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { CommandHandler } from '#hawser/application';
import {
  capabilitiesOf,
  shareDecider,
  shareStream,
  type ShareCommand,
  activeShareOf,
} from '#hawser/domain';
import { OperationJournal, SimulatedShareDriver, type ShareDriver } from '#hawser/drivers';
import { SqliteEventStore } from '#hawser/eventstore';
import { SqliteDocumentStore } from '#hawser/read-models';
import {
  mountSmallFileSystem,
  smallFileSystemUnavailable,
  type SmallFileSystem,
} from '../../../eventstore/src/test-support/small-file-system.js';
import { ProcessManagerRunner } from '#hawser/process-managers';
import { PlacementAdmission } from './placement-admission.js';
import { ShareDriverOperations } from './share-driver-operations.js';
import { shareNodeOperationsProcessManager } from './share-node-operations.process-manager.js';
import { shareRequest } from '../../../process-managers/src/test-support/sqlite-log.js';
import {
  placementOn,
  snapshotRequest,
} from '../../../domain/src/share/test-support/share-history.js';

const HOST = 'sim@a#fast';
const now = () => '2026-11-25T10:00:00.000Z';
const specs = { driver_handles_share_servers: 'False', snapshot_support: 'True' };
const unavailable = smallFileSystemUnavailable();
const skip = unavailable ? ` (skipped: ${unavailable})` : '';
const maybe = unavailable ? it.skip : it;

/** Resolves once `check` holds; fails after `timeoutMs` with what it last saw. */
const eventually = async <T>(read: () => Promise<T>, check: (value: T) => boolean) => {
  const deadline = Date.now() + 20_000;
  let value = await read();
  while (!check(value)) {
    if (Date.now() > deadline) throw new Error(`never reached: ${JSON.stringify(value)}`);
    await delay(20);
    value = await read();
  }
  return value;
};

/**
 * `driver`, except that the file system fills up right after each call of `operation` has
 * done its work: the node's next append (the call's outcome) meets a full disk.
 */
const fillingAfter = (
  driver: ShareDriver,
  operation: 'createShare' | 'createSnapshot',
  small: SmallFileSystem,
): ShareDriver =>
  new Proxy(driver, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      if (property !== operation) return value.bind(target) as unknown;
      return async (request: unknown) => {
        const result: unknown = await (value as (r: unknown) => Promise<unknown>).call(
          target,
          request,
        );
        small.fill();
        return result;
      };
    },
  });

/**
 * A share node on an event log whose disk fills up while the driver works: the outcome's
 * append fails, the runner retries it with back-off and parks it, and once space is back the
 * parked reaction records the driver's answer by itself, without calling the driver again.
 */
describe(`share node operations on a full disk${skip}`, () => {
  let small: SmallFileSystem;
  let dir: string;
  let events: SqliteEventStore;
  let documents: SqliteDocumentStore;
  let commands: CommandHandler;
  let driver: SimulatedShareDriver;
  let runner: ProcessManagerRunner | undefined;
  let counter = 0;

  const run = (command: ShareCommand) =>
    commands.handle(shareDecider, shareStream('s1'), command, {
      commandId: `cmd-${(counter += 1)}`,
    });
  const instance = async () =>
    activeShareOf((await commands.load(shareDecider, shareStream('s1'))).state).instances[0];
  const journal = () => path.join(dir, 'journal.jsonl');
  const startNode = async (operation: 'createShare' | 'createSnapshot') => {
    const drivers = new Map([['sim@a', fillingAfter(driver, operation, small)]]);
    const operations = new ShareDriverOperations(commands, drivers, now);
    const admission = new PlacementAdmission(commands);
    admission.observe(await driver.getPoolStats({ commandId: 'stats' }), Date.now());
    runner = new ProcessManagerRunner(
      events,
      documents,
      [shareNodeOperationsProcessManager('n1', operations, admission)],
      { retry: { attempts: 3, baseDelayMs: 5, maxDelayMs: 20 }, storageRetryIntervalMs: 50 },
    );
    await runner.start();
    return runner;
  };

  beforeAll(() => {
    if (!unavailable) small = mountSmallFileSystem(8 * 1024 * 1024);
  });
  afterAll(() => small?.release());

  beforeEach(async () => {
    if (!small) return;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-full-disk-'));
    events = new SqliteEventStore({ file: path.join(small.mountPoint, 'events.sqlite') });
    // The parked events live elsewhere here; the e2e spec has everything on the full disk.
    documents = new SqliteDocumentStore({ file: path.join(dir, 'read-models.sqlite') });
    commands = new CommandHandler(events);
    driver = new SimulatedShareDriver({
      name: 'sim@a',
      driver: 'simulated',
      availabilityZone: 'az-1',
      pools: [{ name: 'fast', totalCapacityGb: 100 }],
      options: { journalFile: journal() },
    });
    await driver.initialize();
    await run(
      shareRequest('s1', now(), {
        instanceId: 'i1',
        shareType: { id: 't1', name: 'default', extraSpecs: specs },
        capabilities: capabilitiesOf(specs),
      }),
    );
  });
  afterEach(async () => {
    if (!small) return;
    await runner?.stop();
    runner = undefined;
    await driver.close();
    await documents.close();
    await events.close();
    small.free();
    fs.rmSync(path.join(small.mountPoint, 'events.sqlite'), { force: true });
    fs.rmSync(path.join(small.mountPoint, 'events.sqlite-wal'), { force: true });
    fs.rmSync(path.join(small.mountPoint, 'events.sqlite-shm'), { force: true });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  maybe(
    'given a create whose completion meets a full disk, then it is parked as a storage failure with the share creating, and once space is back the share is available with one driver call',
    async () => {
      await run(placementOn('i1', HOST, 'az-1', now()));

      const node = await startNode('createShare');
      const [parked] = await eventually(
        () => node.listParked(),
        (list) => list.length === 1,
      );
      expect(parked).toEqual(
        expect.objectContaining({
          eventType: 'ShareScheduled',
          storageFailure: 'full',
          error: 'database or disk is full',
        }),
      );
      expect(await instance()).toEqual(
        expect.objectContaining({
          status: 'creating',
          pendingOperation: expect.objectContaining({ operation: 'create_share' }),
        }),
      );

      small.free();

      const created = await eventually(instance, (i) => i?.status === 'available');
      expect(created?.pendingOperation).toBeFalsy();
      expect(created?.exportLocations).not.toEqual([]);
      expect(await node.listParked()).toEqual([]);
      const calls = OperationJournal.read(journal()).filter((e) => e.operation === 'createShare');
      expect(calls.map((c) => c.outcome)).toEqual(['ok']);
    },
  );

  maybe(
    'given a snapshot whose completion meets a full disk, then once space is back it is available, taken once',
    async () => {
      await run(placementOn('i1', HOST, 'az-1', now()));
      const node = await startNode('createSnapshot');
      await eventually(instance, (i) => i?.status === 'available');
      await run(snapshotRequest(now()));
      const snapshot = async () =>
        activeShareOf((await commands.load(shareDecider, shareStream('s1'))).state).snapshots[0];

      await eventually(
        () => node.listParked(),
        (list) => list.length === 1,
      );
      expect((await snapshot())?.instances[0]?.status).toBe('creating');

      small.free();

      const taken = await eventually(snapshot, (s) => s?.instances[0]?.status === 'available');
      expect(driver.hasSnapshot(taken?.instances[0]?.id ?? '')).toBe(true);
      const calls = OperationJournal.read(journal()).filter(
        (e) => e.operation === 'createSnapshot',
      );
      expect(calls.map((c) => c.outcome)).toEqual(['ok']);
    },
  );
});
