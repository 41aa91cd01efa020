/**
 * How quickly an unchanged `npm start` answers:
 *   npm run bench:start -- [--runs N] [--port P]   (P: a free port by default)
 * Starts `npm start` N times (default 5) on the built tree, as an operator restarts the service,
 * on one data directory (a first, uncounted start creates it). Each run is timed from the spawn of
 * npm to the first HTTP answer of `GET /healthcheck` (any status) and to the first `OK` (ready),
 * then stopped with SIGTERM to the npm process. Prints median, min and max of both, and the load
 * average before and after: the figures mean little without the machine's load beside them.
 * It also prints the CPU that npm and everything it started spent up to the first answer, which
 * other work on the machine changes far less than it changes the wall time.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { treeCpuSeconds } from '../shares/process-cpu.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const GIVE_UP_MS = 180_000;
const POLL_MS = 20;

interface Run {
  readonly firstAnswerS: number;
  /** CPU seconds of npm and its descendants (the build check, the service) at the first answer. */
  readonly cpuToFirstAnswerS: number;
  readonly readyS: number;
}

const status = async (url: string): Promise<number | undefined> => {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2_000) })).status;
  } catch {
    return undefined;
  }
};

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = net.createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

const startOnce = async (port: number, dataDir: string): Promise<Run> => {
  // An answer from another process would be timed as Hawser's.
  if ((await status(`http://127.0.0.1:${port}/healthcheck`)) !== undefined) {
    throw new Error(`something already answers on port ${port}; pass a free --port`);
  }
  const started = performance.now();
  const npm = spawn('npm', ['start'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HAWSER_DATA_DIR: dataDir, HAWSER_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => npm.once('exit', resolve));
  let firstAnswerS: number | undefined;
  let cpuToFirstAnswerS: number | undefined;
  try {
    for (;;) {
      if (npm.exitCode !== null) throw new Error(`npm start exited with ${npm.exitCode}`);
      const elapsedS = (performance.now() - started) / 1000;
      if (elapsedS * 1000 > GIVE_UP_MS) throw new Error('npm start did not answer');
      const answer = await status(`http://127.0.0.1:${port}/healthcheck`);
      if (answer !== undefined && firstAnswerS === undefined) {
        firstAnswerS = elapsedS;
        cpuToFirstAnswerS = treeCpuSeconds([npm.pid as number]);
      }
      if (firstAnswerS !== undefined && cpuToFirstAnswerS !== undefined && answer === 200) {
        return { firstAnswerS, cpuToFirstAnswerS, readyS: elapsedS };
      }
      await delay(POLL_MS);
    }
  } finally {
    npm.kill('SIGTERM');
    await exited;
  }
};

const sorted = (values: readonly number[]) => [...values].sort((a, b) => a - b);
const median = (values: readonly number[]) => {
  const s = sorted(values);
  const middle = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[middle]! : (s[middle - 1]! + s[middle]!) / 2;
};
const figures = (label: string, values: readonly number[]) =>
  `${label}: median ${median(values).toFixed(2)} s, min ${Math.min(...values).toFixed(2)} s, ` +
  `max ${Math.max(...values).toFixed(2)} s`;
const load = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { runs: { type: 'string', default: '5' }, port: { type: 'string' } },
  });
  const runs = Number(values.runs);
  const port = values.port === undefined ? await freePort() : Number(values.port);
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs takes a whole number >= 1');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-bench-start-'));
  const loadBefore = load();
  try {
    await startOnce(port, path.join(dir, 'data'));
    const measured: Run[] = [];
    for (let run = 1; run <= runs; run++) {
      const result = await startOnce(port, path.join(dir, 'data'));
      console.error(
        `run ${run}: first answer ${result.firstAnswerS.toFixed(2)} s ` +
          `(${result.cpuToFirstAnswerS.toFixed(2)} s of CPU), ready ${result.readyS.toFixed(2)} s`,
      );
      measured.push(result);
    }
    console.log(`npm start, unchanged tree, ${runs} runs on ${os.cpus().length} CPUs`);
    console.log(
      figures(
        'first answer',
        measured.map((r) => r.firstAnswerS),
      ),
    );
    console.log(
      figures(
        'CPU to the first answer',
        measured.map((r) => r.cpuToFirstAnswerS),
      ),
    );
    console.log(
      figures(
        'ready (200)',
        measured.map((r) => r.readyS),
      ),
    );
    console.log(`load average (1, 5, 15 min): before ${loadBefore}, after ${load()}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
