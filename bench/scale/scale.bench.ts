import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { findShareInstances } from '#hawser/projections';
import { SqliteDocumentStore, type Filter, type FindOptions } from '#hawser/read-models';
import { median as medianOf } from '../scheduler/bench-statistics.js';
import { treeCpuSeconds } from '../shares/process-cpu.js';
import { exitWithUsageIfAsked } from '../usage.js';

/** What the bench does and its options, printed by `--help`. */
const USAGE = `
One project filled with N shares over HTTP by concurrent clients, against the all-in-one
server in its own process (simulated back ends, quotas unlimited). At each checkpoint it
prints one JSON line: the create rate in that project and, side by side in pairs of rounds
(which goes first drawn for each pair) each started on a settled store, in a fresh project,
with the server's CPU a create
(from a round's start until its shares settle) in each; the median latency of sorted,
counted, filtered and large pages; the median time of the share node's periodic reads of
instances in flight and of its recovery read at start, on their sparse indexes, and (for
comparison) by status over every instance; read-model and event-log bytes per share; the
server's resident memory; the load average.

  npm run bench:scale -- --shares 100000 --clients 16 --checkpoints 1000,10000,100000
  (--rate-shares, --rate-rounds, --page-samples; --profile-dir DIR for the server's profile;
  --data-dir DIR to keep the filled data)
`;
exitWithUsageIfAsked(USAGE);

const argument = (name: string, fallback: string): string => {
  const index = process.argv.indexOf(name);
  return index >= 0 ? (process.argv[index + 1] ?? fallback) : fallback;
};
const TOTAL = Number(argument('--shares', '10000'));
const CLIENTS = Number(argument('--clients', '16'));
const CHECKPOINTS = argument('--checkpoints', `1000,${TOTAL}`)
  .split(',')
  .map(Number)
  .filter((n) => n > 0 && n <= TOTAL);
/** Creates per project and round of the side-by-side rate, and rounds per checkpoint. */
const RATE_SHARES = Number(argument('--rate-shares', '200'));
const RATE_ROUNDS = Number(argument('--rate-rounds', '16'));
const PAGE_SAMPLES = Number(argument('--page-samples', '15'));
/** How long the rounds wait for the fill's creates to settle before giving up. */
const SETTLE_TIMEOUT_MS = 120_000;
/** A data folder to fill and keep (a fresh temporary one, removed at the end, otherwise). */
const KEPT_DATA_DIR = argument('--data-dir', '');
/** A folder for the server's CPU profile (node --cpu-prof), written when it stops. */
const PROFILE_DIR = argument('--profile-dir', '');

const project = (n: number) => `5ca1e${String(n).padStart(27, '0')}`;
const tokenOf = (projectId: string) => `bench:${projectId}`;
const BIG = project(0);

const backendsFile = (dir: string): string => {
  const file = path.join(dir, 'backends.json');
  const backends = ['a', 'b'].map((letter) => ({
    name: `scale@${letter}`,
    driver: 'simulated',
    availabilityZone: 'az-1',
    pools: [{ name: 'p1', totalCapacityGb: 100_000_000 }],
  }));
  fs.writeFileSync(file, JSON.stringify(backends));
  return file;
};

const freePort = async (): Promise<number> => {
  const net = await import('node:net');
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
};

const startServer = async (dataDir: string, port: number): Promise<ChildProcess> => {
  const main = path.resolve(
    path.dirname(fileURLToPath(import.meta.url)),
    '../../apps/hawser/src/main.js',
  );
  const unlimited = Object.fromEntries(
    ['SHARES', 'GIGABYTES', 'PER_SHARE_GIGABYTES', 'SNAPSHOTS', 'SNAPSHOT_GIGABYTES'].map((r) => [
      `HAWSER_QUOTA_${r}`,
      '-1',
    ]),
  );
  const profile = PROFILE_DIR ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(PROFILE_DIR)] : [];
  const server = spawn(process.execPath, [...profile, main], {
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      HAWSER_DATA_DIR: dataDir,
      HAWSER_BACKENDS: backendsFile(dataDir),
      HAWSER_LOG_LEVEL: 'warn',
      // Passed on for a side-by-side run of the heap's growth bound.
      ...(process.env.HAWSER_HEAP_GROWTH_PERCENT && {
        HAWSER_HEAP_GROWTH_PERCENT: process.env.HAWSER_HEAP_GROWTH_PERCENT,
      }),
      ...unlimited,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).status < 500) return server;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  server.kill('SIGKILL');
  throw new Error('the server did not start within 60 s');
};

const main = async () => {
  if (KEPT_DATA_DIR) fs.mkdirSync(KEPT_DATA_DIR, { recursive: true });
  const dataDir = KEPT_DATA_DIR
    ? path.resolve(KEPT_DATA_DIR)
    : fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-bench-scale-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = await startServer(dataDir, port);
  /** One Manila call at the newest microversion; a 4xx or 5xx fails the run. */
  const call = async (method: string, route: string, token: string, body?: unknown) => {
    const headers = { 'X-Auth-Token': token, 'X-OpenStack-Manila-API-Version': '2.72' };
    const init: RequestInit =
      body === undefined
        ? { method, headers }
        : {
            method,
            headers: { ...headers, 'Content-Type': 'application/json' },
            body: JSON.stringify(body),
          };
    const response = await fetch(`${base}${route}`, init);
    const json = (await response.json()) as Record<string, unknown>;
    if (response.status >= 400) throw new Error(`${method} ${route}: ${JSON.stringify(json)}`);
    return json;
  };
  const admin = tokenOf(`${BIG}:admin`);

  let created = 0;
  /** `count` shares in a project by CLIENTS concurrent clients; the creates per second. */
  const createShares = async (projectId: string, count: number, named = false) => {
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (next < count) {
          next++;
          const n = created++;
          await call('POST', '/v2/shares', tokenOf(projectId), {
            share: {
              share_proto: 'NFS',
              size: 1 + (n % 7),
              share_type: 'scale',
              ...(named && { name: `share-${n}` }),
            },
          });
        }
      }),
    );
    return count / ((performance.now() - started) / 1000);
  };

  /**
   * Until no share in the store is still being created: the creates are answered before their
   * scheduling, the node's work and the projections, so a fill leaves work behind that would
   * otherwise slow the rounds measured after it.
   */
  const settled = async () => {
    const pending = '/v2/shares/detail?all_tenants=1&status=creating&limit=1';
    const deadline = performance.now() + SETTLE_TIMEOUT_MS;
    for (;;) {
      const { shares } = (await call('GET', pending, admin)) as { shares: unknown[] };
      if (shares.length === 0) return;
      if (performance.now() > deadline) {
        throw new Error(
          `shares still creating after ${SETTLE_TIMEOUT_MS} ms: the figures would mean nothing`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  /** The median of PAGE_SAMPLES timings of `work`, in ms to `digits` decimals. */
  const medianMs = async (work: () => Promise<unknown>, digits: number): Promise<number> => {
    const times: number[] = [];
    for (let i = 0; i < PAGE_SAMPLES; i++) {
      const started = performance.now();
      await work();
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    return Number((times[Math.floor(times.length / 2)] ?? 0).toFixed(digits));
  };
  const median = (route: string) => medianMs(() => call('GET', route, tokenOf(BIG)), 1);
  /** The share node's periodic reads, through a connection of the bench's own to the file. */
  const medianFind = (store: SqliteDocumentStore, filter: Filter, options: FindOptions = {}) =>
    medianMs(() => findShareInstances(store, filter, options), 2);
  const nodePolls = async () => {
    const store = new SqliteDocumentStore({ file: path.join(dataDir, 'read-models.sqlite') });
    try {
      return {
        creatingFromSnapshotMs: await medianFind(store, {
          transitional_status: 'creating_from_snapshot',
        }),
        migratingToMs: await medianFind(store, { transitional_status: 'migrating_to' }),
        replicasMs: await medianFind(store, {
          replica_state: { $in: ['active', 'in_sync', 'out_of_sync', 'error'] },
        }),
        recoveryAtStartMs: await medianFind(
          store,
          { pending_operation: { $ne: null } },
          { sort: [['pending_operation', 1]] },
        ),
        byStatusOverEveryInstanceMs: await medianFind(store, { status: 'creating_from_snapshot' }),
      };
    } finally {
      await store.close();
    }
  };

  const storedBytes = (file: string): number => {
    const db = new Database(path.join(dataDir, file), { readonly: true, fileMustExist: true });
    try {
      const pages = db.pragma('page_count', { simple: true }) as number;
      const free = db.pragma('freelist_count', { simple: true }) as number;
      const size = db.pragma('page_size', { simple: true }) as number;
      return (pages - free) * size;
    } finally {
      db.close();
    }
  };

  const residentMiB = (): number => {
    const status = fs.readFileSync(`/proc/${String(server.pid)}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return Math.round(kb / 1024);
  };

  try {
    await call('POST', '/v2/types', admin, {
      share_type: { name: 'scale', extra_specs: { driver_handles_share_servers: 'false' } },
    });
    let inBig = 0;
    let freshProject = 1;
    const fillStarted = performance.now();
    for (const checkpoint of CHECKPOINTS) {
      if (checkpoint > inBig) {
        await createShares(BIG, checkpoint - inBig, true);
        inBig = checkpoint;
      }
      const settling = performance.now();
      await settled();
      const settledAfterMs = Math.round(performance.now() - settling);
      // Side by side: pairs of rounds, one in a fresh project and one in the full one, so both
      // see the same load on the machine; which goes first is drawn for each pair. A fixed
      // order (fresh-full, full-fresh, ...) repeats every four rounds, and at some sizes so did
      // the server's major garbage collection (each round allocates much the same): it landed
      // on the same side of every other pair, and the ratio measured where, 0.80 in one run and
      // 1.13 in the next. Each round starts on a settled store (the fill's settled above, each
      // round's after it): a round's answers come before the scheduling and the projections
      // they cause, and a round sharing the machine with the last one's tail measured that
      // tail. The server's CPU from a round's start until its shares settle is the whole cost
      // of its creates, in either project.
      const freshRates: number[] = [];
      const fullRates: number[] = [];
      const freshCpuMs: number[] = [];
      const fullCpuMs: number[] = [];
      const serverCpuMs = () => treeCpuSeconds([server.pid as number]) * 1000;
      const measuredRound = async (projectId: string, rates: number[], cpuMs: number[]) => {
        const cpuBefore = serverCpuMs();
        rates.push(await createShares(projectId, RATE_SHARES));
        await settled();
        cpuMs.push((serverCpuMs() - cpuBefore) / RATE_SHARES);
      };
      const inFresh = () => measuredRound(project(freshProject++), freshRates, freshCpuMs);
      const inFull = () => measuredRound(BIG, fullRates, fullCpuMs);
      for (let round = 0; round < RATE_ROUNDS; round++) {
        if (Math.random() < 0.5) {
          await inFresh();
          await inFull();
        } else {
          await inFull();
          await inFresh();
        }
        inBig += RATE_SHARES;
      }
      // Each pair of rounds ran side by side; the median of their ratios is not moved by a
      // round the machine's other work slowed, as a mean of rates is.
      const pairRatios = fullRates.map((full, i) => full / (freshRates[i] as number));
      const middle = `share-${Math.floor(created / 2)}`;
      const pages = {
        sortedBySizeMs: await median('/v2/shares/detail?limit=50&sort_key=size'),
        sortedByNameAscMs: await median('/v2/shares/detail?limit=50&sort_key=name&sort_dir=asc'),
        countedMs: await median('/v2/shares/detail?with_count=true&limit=10'),
        filteredByStatusMs: await median('/v2/shares/detail?status=available&limit=50'),
        filteredByNameMs: await median(`/v2/shares/detail?name=${middle}`),
        deepOffsetMs: await median(`/v2/shares/detail?limit=50&offset=${Math.floor(inBig / 2)}`),
        page1000Ms: await median('/v2/shares/detail?limit=1000'),
      };
      const readModels = storedBytes('read-models.sqlite');
      const events = storedBytes('events.sqlite');
      console.log(
        JSON.stringify({
          bench: 'scale',
          sharesInProject: inBig,
          sharesInStore: created,
          fillSeconds: Math.round((performance.now() - fillStarted) / 1000),
          settledAfterMs,
          createsPerSecond: {
            freshProject: Math.round(medianOf(freshRates)),
            fullProject: Math.round(medianOf(fullRates)),
            ratio: Number(medianOf(pairRatios).toFixed(2)),
            pairRatios: pairRatios.map((ratio) => Number(ratio.toFixed(2))),
          },
          serverCpuMsPerCreate: {
            freshProject: Number(medianOf(freshCpuMs).toFixed(2)),
            fullProject: Number(medianOf(fullCpuMs).toFixed(2)),
          },
          pages,
          nodePolls: await nodePolls(),
          readModelBytesPerShare: Math.round(readModels / created),
          eventLogBytesPerShare: Math.round(events / created),
          serverRssMiB: residentMiB(),
          loadAverage: os.loadavg().map((l) => Number(l.toFixed(2))),
        }),
      );
    }
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    if (!KEPT_DATA_DIR) fs.rmSync(dataDir, { recursive: true, force: true });
  }
};

await main();
