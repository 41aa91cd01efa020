import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { OperationJournal, type SimulatedBackendConfig } from '#hawser/drivers';
import { SqliteEventStore } from '#hawser/eventstore';
import { SHARES as SHARES_COLLECTION } from '#hawser/projections';
import { SqliteDocumentStore } from '#hawser/read-models';
import { HawserProcess, freePort, startSimulatedHawser } from './test-support/hawser-process.js';
import { manilaRequest } from './test-support/manila-http.js';
import { simulatedBackends } from './test-support/simulated-backends.js';

const TOKEN = 'admin:44444444444444444444444444444444';
/** Requests spread over projects, so Manila's default quota (50 shares a project) never refuses one. */
const projectToken = (share: number) => `admin:${String(Math.floor(share / 40)).padStart(32, '4')}`;
const SHARES = 200;

const call = (base: string, method: string, route: string, body?: unknown) =>
  manilaRequest(base, method, route, body, { token: TOKEN });

describe('crash recovery of the all-in-one service', () => {
  let dir: string;
  let backends: SimulatedBackendConfig[];

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-crash-'));
    // Slow drivers (15 ms a call), each journaling every call it receives to a file.
    backends = simulatedBackends({ latencyMs: 15 }).map((b) => ({
      ...b,
      options: { ...b.options, journalFile: path.join(dir, `journal-${b.name}.jsonl`) },
    }));
    fs.writeFileSync(path.join(dir, 'backends.json'), JSON.stringify(backends));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('given 200 shares being created, when the process is SIGKILLed and restarted, then every share ends final, no driver operation ran twice, and the read models equal a rebuild', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = {
      PORT: String(port),
      HAWSER_DATA_DIR: path.join(dir, 'data'),
      HAWSER_BACKENDS: path.join(dir, 'backends.json'),
      HAWSER_AUTH: 'noauth',
    };
    const first = new HawserProcess(env);
    await first.start();
    expect(
      (
        await call(base, 'POST', '/v2/types', {
          share_type: { name: 'default', extra_specs: { driver_handles_share_servers: 'false' } },
        })
      ).status,
    ).toBe(200);

    // Request all 200, eight at a time; kill the process once a third are accepted.
    let accepted = 0;
    let next = 0;
    let killed: Promise<void> | undefined;
    const worker = async () => {
      while (next < SHARES) {
        const share = next;
        next += 1;
        try {
          const created = await manilaRequest(
            base,
            'POST',
            '/v2/shares',
            { share: { share_proto: 'NFS', size: 1, share_type: 'default' } },
            { token: projectToken(share) },
          );
          if (created.status === 200) accepted += 1;
        } catch {
          return; // the process is gone
        }
        if (accepted >= SHARES / 3 && !killed) killed = first.kill();
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    expect(killed).toBeDefined();
    await killed;

    // The kill landed mid-way: the log holds requests that no driver had completed.
    const log = new SqliteEventStore({ file: path.join(dir, 'data', 'events.sqlite') });
    const count = async (type: string) =>
      (await log.readAll({ filter: { eventTypes: [type] } })).length;
    const atCrash = {
      requested: await count('ShareRequested'),
      created: await count('ShareCreated'),
    };
    await log.close();
    expect(atCrash.requested).toBeGreaterThanOrEqual(accepted);
    expect(atCrash.created).toBeLessThan(atCrash.requested);

    const second = new HawserProcess(env);
    await second.start();
    try {
      const shares = await waitForFinal(base);
      expect(shares.length).toBe(atCrash.requested);
      expect(shares.every((s) => s.status === 'available')).toBe(true);

      // No driver operation ran twice for the same command.
      const entries = backends.flatMap((b) =>
        OperationJournal.read(b.options?.journalFile as string),
      );
      const creates = entries.filter((e) => e.operation === 'createShare');
      const perCommand = new Map<string, number>();
      for (const e of creates) perCommand.set(e.commandId, (perCommand.get(e.commandId) ?? 0) + 1);
      expect([...perCommand.values()].filter((n) => n > 1)).toEqual([]);
      expect(creates.filter((e) => e.outcome === 'duplicate')).toEqual([]);
      expect(perCommand.size).toBe(shares.length);

      // The read models equal a full rebuild from the log.
      const live = await listAll(base);
      expect((await call(base, 'POST', '/hawser/v1/projections/shares/rebuild')).status).toBe(200);
      const rebuilt = await listAll(base);
      expect(rebuilt).toEqual(live);
    } finally {
      expect(await second.stop()).toBe(0);
    }
  }, 120_000);

  it('given the tables of a rebuild whose process died before its swap, when the service starts, then it drops them, says so, and answers from the live generation', async () => {
    const own = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-rebuild-crash-'));
    try {
      const first = await startSimulatedHawser(own);
      let created: Awaited<ReturnType<typeof call>>;
      try {
        const type = await call(first.base, 'POST', '/v2/types', {
          share_type: { name: 'default', extra_specs: { driver_handles_share_servers: 'false' } },
        });
        expect(type.status).toBe(200);
        created = await call(first.base, 'POST', '/v2/shares', {
          share: { share_proto: 'NFS', size: 1, share_type: 'default' },
        });
        expect(created.status).toBe(200);
      } finally {
        expect(await first.service.stop()).toBe(0);
      }
      // What a rebuild leaves when its process dies after loading, before its swap.
      const file = path.join(own, 'data', 'read-models.sqlite');
      const store = new SqliteDocumentStore({ file });
      const generation = await store.prepareGeneration([SHARES_COLLECTION]);
      await store.write([
        {
          kind: 'put',
          collection: `${SHARES_COLLECTION}@${generation}`,
          document: { id: 'half-built' },
        },
      ]);
      await store.close();

      const second = await startSimulatedHawser(own);
      try {
        const listed = await call(second.base, 'GET', '/v2/shares');
        expect(second.service.output).toContain(
          `dropped generation ${generation}, prepared by a rebuild that never ended`,
        );
        expect((listed.body.shares as { id: string }[]).map((share) => share.id)).toEqual([
          created.body.share.id,
        ]);
      } finally {
        expect(await second.service.stop()).toBe(0);
      }
      const after = new SqliteDocumentStore({ file });
      expect(await after.discardPreparedGenerations()).toEqual([]);
      expect(await after.count(`${SHARES_COLLECTION}@${generation}`)).toBe(0);
      await after.close();
    } finally {
      fs.rmSync(own, { recursive: true, force: true });
    }
  }, 60_000);

  const listAll = async (base: string) =>
    (await call(base, 'GET', '/v2/shares/detail?all_tenants=1&sort_key=id&sort_dir=asc')).body
      .shares as Array<{ id: string; status: string }>;

  const waitForFinal = async (base: string) => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const shares = await listAll(base);
      if (shares.every((s) => s.status === 'available' || s.status === 'error')) return shares;
      if (Date.now() > deadline) throw new Error('shares did not all reach a final state');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
});
