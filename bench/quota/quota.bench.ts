import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CommandHandler } from '#hawser/application';
import {
  MANILA_DEFAULT_QUOTAS,
  quotaDecider,
  quotaStream,
  shareCreationDeltas,
} from '#hawser/domain';
import type { SimulatedBackendConfig } from '#hawser/drivers';
import { SqliteEventStore, SqliteSnapshotStore } from '#hawser/eventstore';
import { loadConfig } from '#hawser/platform';
import { createHawserApp } from '../../apps/hawser/src/hawser.app.js';
import { median, round } from '../scheduler/bench-statistics.js';
import { exitWithUsageIfAsked } from '../usage.js';

/** What the bench does and its options, printed by `--help`. */
const USAGE = `
The cost of a project's quota as it grows: N shares created one after another in ONE project,
and the time of the first and the last \`--window\` creates. Each is measured twice in one run,
with the quota stream replayed whole on every load (HAWSER_AGGREGATE_SNAPSHOTS=false, how every
load worked before snapshots) and from its snapshot:
- \`reserve\`: the quota reservation alone, through the command handler on a SQLite log;
- \`http\`: POST /v2/shares over HTTP against the all-in-one service on simulated back ends.
Prints one JSON line per measure. \`--layers reserve,http\` and \`--modes replay,snapshot\` choose
(replaying whole streams grows with the square of N: about 1 min per layer at N = 1,000).
`;
exitWithUsageIfAsked(USAGE);

const argument = (name: string, fallback: number): number => {
  const index = process.argv.indexOf(name);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
};
const SHARES = argument('--shares', 3_000);
const WINDOW = argument('--window', 100);
const PROJECT = '0123456789abcdef0123456789abcdef';
const list = (name: string, fallback: string): string[] => {
  const index = process.argv.indexOf(name);
  return (index >= 0 ? (process.argv[index + 1] ?? '') : fallback).split(',');
};
const MODES = [
  { snapshots: false, key: 'replay' },
  { snapshots: true, key: 'snapshot' },
].filter((mode) => list('--modes', 'replay,snapshot').includes(mode.key));
const LAYERS = list('--layers', 'reserve,http');
const modeName = (snapshots: boolean) => (snapshots ? 'snapshot + tail' : 'replay whole stream');

const report = (layer: string, mode: string, times: readonly number[]) => {
  const first = times.slice(0, WINDOW);
  const last = times.slice(-WINDOW);
  const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  console.log(
    JSON.stringify({
      bench: 'quota',
      layer,
      mode,
      shares: times.length,
      firstMeanMs: round(mean(first), 3),
      firstMedianMs: round(median(first), 3),
      lastMeanMs: round(mean(last), 3),
      lastMedianMs: round(median(last), 3),
      totalS: round(times.reduce((a, b) => a + b, 0) / 1000, 2),
    }),
  );
};

const withDataDir = async (run: (dataDir: string) => Promise<void>) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-bench-quota-'));
  try {
    await run(dataDir);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
};

const reservations = (snapshots: boolean) =>
  withDataDir(async (dataDir) => {
    const events = new SqliteEventStore({ file: path.join(dataDir, 'events.sqlite') });
    const cache = snapshots
      ? new SqliteSnapshotStore(path.join(dataDir, 'snapshots.sqlite'))
      : undefined;
    const commands = new CommandHandler(events, cache);
    const defaults = { ...MANILA_DEFAULT_QUOTAS, shares: SHARES, gigabytes: SHARES };
    const times: number[] = [];
    for (let i = 0; i < SHARES; i += 1) {
      const started = performance.now();
      await commands.handle(
        quotaDecider,
        quotaStream(PROJECT),
        {
          type: 'ReserveQuota',
          projectId: PROJECT,
          holderId: `share-${i}`,
          holderKind: 'share',
          deltas: shareCreationDeltas(1, false),
          defaults,
          now: new Date().toISOString(),
        },
        { commandId: `reserve-${i}` },
      );
      times.push(performance.now() - started);
    }
    await cache?.close();
    await events.close();
    report('reserve', modeName(snapshots), times);
  });

const backends = (): SimulatedBackendConfig[] => [
  {
    name: 'bench@quota',
    driver: 'simulated',
    availabilityZone: 'az-1',
    pools: [{ name: 'p1', totalCapacityGb: 1_000_000 }],
  },
];

const shareCreates = (snapshots: boolean) =>
  withDataDir(async (dataDir) => {
    const config = loadConfig({
      HAWSER_DATA_DIR: dataDir,
      HAWSER_AGGREGATE_SNAPSHOTS: String(snapshots),
      HAWSER_QUOTA_SHARES: String(SHARES),
      HAWSER_QUOTA_GIGABYTES: String(SHARES),
    });
    const app = await createHawserApp(config, backends(), { logger: false });
    await app.listen(0, '127.0.0.1');
    const base = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
    const call = async (route: string, body: unknown) => {
      const response = await fetch(`${base}${route}`, {
        method: 'POST',
        headers: {
          'X-Auth-Token': `bench:${PROJECT}`,
          'X-OpenStack-Manila-API-Version': '2.72',
          'Content-Type': 'application/json',
        },
        body: JSON.stringify(body),
      });
      if (response.status >= 300) throw new Error(`${route}: ${await response.text()}`);
    };
    try {
      await call('/v2/types', {
        share_type: { name: 'bench', extra_specs: { driver_handles_share_servers: 'false' } },
      });
      const times: number[] = [];
      for (let i = 0; i < SHARES; i += 1) {
        const started = performance.now();
        await call('/v2/shares', { share: { share_proto: 'NFS', size: 1, share_type: 'bench' } });
        times.push(performance.now() - started);
      }
      report('http', modeName(snapshots), times);
    } finally {
      await app.close();
    }
  });

if (LAYERS.includes('reserve')) for (const mode of MODES) await reservations(mode.snapshots);
if (LAYERS.includes('http')) for (const mode of MODES) await shareCreates(mode.snapshots);
