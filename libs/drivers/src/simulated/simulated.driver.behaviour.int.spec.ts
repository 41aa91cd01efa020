import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SimulatedBackendOptions } from '../config/backend-config.js';
import { command, newShare, newSnapshot } from '../contract/share-driver.contract.js';
import { OperationJournal } from './operation-journal.js';
import { REMEMBERED_CALLS, SimulatedShareDriver } from './simulated.driver.js';

const BACKEND = 'sim-host@sim';

async function startDriver(options: SimulatedBackendOptions = {}): Promise<SimulatedShareDriver> {
  const driver = new SimulatedShareDriver({
    driver: 'simulated',
    name: BACKEND,
    availabilityZone: 'az-1',
    pools: [{ name: 'p1', totalCapacityGb: 100 }, { name: 'p2' }],
    options,
  });
  await driver.initialize();
  return driver;
}

describe('simulated driver', () => {
  let dir: string;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-'));
  });

  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  describe('failure injection', () => {
    it('given "fail the 2nd createShare", then exactly that call fails and a retry with its command id succeeds', async () => {
      const driver = await startDriver({ failures: [{ operation: 'createShare', nthCall: 2 }] });
      const shares = [newShare(BACKEND, 'p1'), newShare(BACKEND, 'p1'), newShare(BACKEND, 'p1')];
      const commands = shares.map(() => command());

      const outcomes = await Promise.allSettled(
        shares.map((share, i) => driver.createShare({ commandId: commands[i]!, share })),
      );

      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({
        code: 'injected_failure',
        operation: 'createShare',
        commandId: commands[1],
      });
      await expect(
        driver.createShare({ commandId: commands[1]!, share: shares[1]! }),
      ).resolves.toHaveProperty('exportLocations');
    });

    it('given a failure probability and a seed, then the same seed fails the same calls', async () => {
      const pattern = async (seed: number): Promise<boolean[]> => {
        const driver = await startDriver({
          seed,
          failures: [{ operation: 'getPoolStats', probability: 0.5 }],
        });
        const results: boolean[] = [];
        for (let i = 0; i < 40; i += 1) {
          results.push(
            await driver.getPoolStats({ commandId: command() }).then(
              () => true,
              () => false,
            ),
          );
        }
        return results;
      };

      const first = await pattern(42);
      const again = await pattern(42);
      const other = await pattern(7);

      expect(again).toEqual(first);
      expect(other).not.toEqual(first);
      expect(first.filter((ok) => !ok).length).toBeGreaterThan(5);
      expect(first.filter((ok) => ok).length).toBeGreaterThan(5);
    });

    it('given an injected failure at run time with a code, then the next call fails with that code', async () => {
      const driver = await startDriver();
      const share = newShare(BACKEND, 'p1', { sizeGiB: 2 });
      await driver.createShare({ commandId: command(), share });

      driver.injectFailure({ operation: 'extendShare', nthCall: 1, code: 'backend_error' });

      await expect(
        driver.extendShare({ commandId: command(), share, newSizeGiB: 3 }),
      ).rejects.toMatchObject({ code: 'backend_error' });
      expect(driver.inspectShare(share.instanceId)?.sizeGiB).toBe(2);
    });
  });

  it('given a per-operation latency, then that operation takes at least that long', async () => {
    const driver = await startDriver({ operationLatencyMs: { createShare: 30 } });
    const started = performance.now();

    await driver.createShare({ commandId: command(), share: newShare(BACKEND, 'p1') });

    expect(performance.now() - started).toBeGreaterThanOrEqual(29);
  });

  it('given a thick pool, when shares exceed its capacity, then creation fails with capacity exceeded', async () => {
    const driver = await startDriver();
    await driver.createShare({
      commandId: command(),
      share: newShare(BACKEND, 'p1', { sizeGiB: 90 }),
    });

    await expect(
      driver.createShare({ commandId: command(), share: newShare(BACKEND, 'p1', { sizeGiB: 20 }) }),
    ).rejects.toMatchObject({ code: 'capacity_exceeded' });
  });

  it('when a share is created from a snapshot in another pool, then each poll advances progress by a quarter', async () => {
    const driver = await startDriver();
    const parent = newShare(BACKEND, 'p1');
    const snapshot = newSnapshot(parent);
    await driver.createShare({ commandId: command(), share: parent });
    await driver.createSnapshot({ commandId: command(), snapshot, share: parent });
    const share = newShare(BACKEND, 'p2');

    const created = await driver.createShareFromSnapshot({
      commandId: command(),
      share,
      snapshot,
      parentShare: parent,
    });
    const snapshotWhileCopying = driver
      .createSnapshot({ commandId: command(), snapshot: newSnapshot(share), share })
      .catch((error: unknown) => error);
    const polls = [];
    for (let i = 0; i < 4; i += 1) {
      polls.push(await driver.getShareStatus({ commandId: command(), share }));
    }

    expect(created).toEqual({ status: 'creating_from_snapshot', progress: 0 });
    expect(polls.map((p) => [p.status, p.progress])).toEqual([
      ['creating_from_snapshot', 25],
      ['creating_from_snapshot', 50],
      ['creating_from_snapshot', 75],
      ['available', 100],
    ]);
    expect(await snapshotWhileCopying).toMatchObject({ code: 'invalid_request' });
  });

  describe('journal', () => {
    it('when an operation answers, then its journal line is already written', async () => {
      const journalFile = path.join(dir, 'journal.jsonl');
      const driver = await startDriver({ journalFile });
      const share = newShare(BACKEND, 'p1');
      const commandId = command();

      await driver.createShare({ commandId, share });

      const entries = OperationJournal.read(journalFile);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({
        seq: 1,
        backend: BACKEND,
        operation: 'createShare',
        commandId,
        outcome: 'ok',
      });
      expect(entries[0]?.ids).toEqual(expect.arrayContaining([share.shareId, share.instanceId]));
      await driver.close();
    });

    it('given a repeated command id, then the journal marks it duplicate and the operation ran once', async () => {
      const journalFile = path.join(dir, 'journal.jsonl');
      const driver = await startDriver({ journalFile });
      const share = newShare(BACKEND, 'p1', { sizeGiB: 5 });
      const commandId = command();

      await driver.createShare({ commandId, share });
      await driver.createShare({ commandId, share });
      await driver.extendShare({ commandId: 'extend-1', share, newSizeGiB: 6 });
      await driver.extendShare({ commandId: 'extend-1', share, newSizeGiB: 6 });

      const entries = OperationJournal.read(journalFile);
      const ran = entries.filter((entry) => entry.outcome === 'ok').map((e) => e.commandId);
      expect(new Set(ran).size).toBe(ran.length);
      expect(entries.map((e) => e.outcome)).toEqual(['ok', 'duplicate', 'ok', 'duplicate']);
      expect(driver.inspectShare(share.instanceId)?.sizeGiB).toBe(6);
      await driver.close();
    });

    it('given more calls than it remembers, then only the oldest is forgotten: its repeat runs again, the next one is still a duplicate', async () => {
      const journalFile = path.join(dir, 'journal.jsonl');
      const driver = await startDriver({ journalFile });
      const share = newShare(BACKEND, 'p1');
      await driver.createShare({ commandId: 'create', share });
      for (let call = 1; call <= REMEMBERED_CALLS; call += 1) {
        await driver.getShareStatus({ commandId: `status-${call}`, share });
      }

      await driver.createShare({ commandId: 'create', share });
      await driver.getShareStatus({ commandId: 'status-2', share });

      const lastLines = OperationJournal.read(journalFile).slice(-2);
      expect(lastLines.map((e) => [e.commandId, e.outcome])).toEqual([
        ['create', 'ok'],
        ['status-2', 'duplicate'],
      ]);
      await driver.close();
    });

    it('when the driver restarts on its journal, then state is rebuilt and a torn last line is ignored', async () => {
      const journalFile = path.join(dir, 'journal.jsonl');
      const before = await startDriver({
        journalFile,
        failures: [{ operation: 'deleteShare', nthCall: 1 }],
      });
      const kept = newShare(BACKEND, 'p1', { sizeGiB: 4 });
      const gone = newShare(BACKEND, 'p2');
      const parent = newShare(BACKEND, 'p1');
      const snapshot = newSnapshot(parent);
      const copying = newShare(BACKEND, 'p2');
      await before.createShare({ commandId: 'c1', share: kept });
      await before.createShare({ commandId: 'c2', share: gone });
      await expect(before.deleteShare({ commandId: 'c3', share: gone })).rejects.toThrow();
      await before.deleteShare({ commandId: 'c3', share: gone });
      await before.createShare({ commandId: 'c4', share: parent });
      await before.createSnapshot({ commandId: 'c5', snapshot, share: parent });
      await before.createShareFromSnapshot({
        commandId: 'c6',
        share: copying,
        snapshot,
        parentShare: parent,
      });
      await before.getShareStatus({ commandId: 'c7', share: copying });
      before.setUsedGiB(kept.instanceId, 3);
      await before.close();
      fs.appendFileSync(journalFile, '{"seq": 99, "operation": "createSh');

      const after = await startDriver({ journalFile });

      expect(after.inspectShare(kept.instanceId)).toMatchObject({ sizeGiB: 4, usedGiB: 3 });
      expect(after.inspectShare(gone.instanceId)).toBeUndefined();
      expect(after.hasSnapshot(snapshot.snapshotInstanceId)).toBe(true);
      expect(await after.getShareStatus({ commandId: 'c8', share: copying })).toMatchObject({
        status: 'creating_from_snapshot',
        progress: 50,
      });
      await expect(after.createShare({ commandId: 'c1', share: kept })).resolves.toBeDefined();
      const lastLines = OperationJournal.read(journalFile).slice(-2);
      expect(lastLines.map((e) => [e.commandId, e.outcome])).toEqual([
        ['c8', 'ok'],
        ['c1', 'duplicate'],
      ]);
      await after.close();
    });
  });

  describe('a burst of concurrent calls', () => {
    it.each([
      ['without a journal', false],
      ['with a journal', true],
    ])(
      'given 100 concurrent creates %s, then each share is created once',
      async (_label, journal) => {
        const journalFile = path.join(dir, 'burst.jsonl');
        const driver = await startDriver(journal ? { journalFile } : {});
        const shares = Array.from({ length: 100 }, () => newShare(BACKEND, 'p2'));

        await Promise.all(
          shares.map((share) => driver.createShare({ commandId: command(), share })),
        );

        for (const share of shares) expect(driver.inspectShare(share.instanceId)).toBeDefined();
        if (journal) {
          const created = OperationJournal.read(journalFile).filter(
            (entry) => entry.operation === 'createShare' && entry.outcome === 'ok',
          );
          expect(created).toHaveLength(100);
        }
        await driver.close();
      },
    );
  });
});
