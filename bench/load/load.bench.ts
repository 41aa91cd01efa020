import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { round } from '../scheduler/bench-statistics.js';
import { DEFAULT_MIX, MixedLoad, parseMix, Tally } from './mixed-load.js';
import {
  cpuSeconds,
  heapAfterLastFullGc,
  residentMemory,
  startAllInOne,
  startLoadServices,
  type Service,
} from './load-services.js';
import { exitWithUsageIfAsked } from '../usage.js';

/** What the bench does and its options, printed by `--help`. */
const USAGE = `
The mixed read/write load of 50 keep-alive clients against the API as one process and as
N processes on one port (with a scheduler and a share node over NATS, on a simulated back
end), printing every interval the throughput, p50/p99 latency, the CPU, resident memory and
live heap (after its last full collection) of every process, and the machine's load average;
then a summary per run.

  npm run bench:load -- --seconds 60 --clients 50 --processes 2
  npm run bench:load -- --warmup 30       (the load runs 30 s first, uncounted: the default,
                                           while V8 compiles the services' hot code; 0 to count
                                           a cold start)
  npm run bench:load -- --soak            (600 s against N processes, memory every 30 s from
                                           the start: no warm-up)
  npm run bench:load -- --profile-dir DIR (a CPU profile of each API process, node --cpu-prof)
  npm run bench:load -- --projector-process (N serving processes and a projector process)
  npm run bench:load -- --all-in-one     (the embedded default instead, npm start's one
                                           process: API, projections, scheduler, share node)
  npm run bench:load -- --node-args '--max-semi-space-size=4' (node's options for every service)
  npm run bench:load -- --mix show:100   (the operations' weights; by default
                                           list:30,show:40,create:10,delete:10,allow:10; one
                                           operation alone gives its own CPU a request)
`;
exitWithUsageIfAsked(USAGE);

const PROJECT = '77777777777777777777777777777777';
const TOKEN = `admin:${PROJECT}`;

const argument = (name: string, fallback: number): number => {
  const index = process.argv.indexOf(name);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
};

const soak = process.argv.includes('--soak');
const seconds = argument('--seconds', soak ? 600 : 60);
const warmupS = argument('--warmup', soak ? 0 : 30);
const clients = argument('--clients', 50);
const processes = argument('--processes', 2);
const sampleS = argument('--sample', soak ? 30 : 10);
const seedShares = argument('--seed', 100);
const profileIndex = process.argv.indexOf('--profile-dir');
const profileDir = profileIndex >= 0 ? process.argv[profileIndex + 1] : undefined;
const apiNodeArguments = profileDir
  ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(profileDir)]
  : [];
const nodeArgsIndex = process.argv.indexOf('--node-args');
const nodeArguments =
  nodeArgsIndex >= 0 ? (process.argv[nodeArgsIndex + 1] ?? '').split(/\s+/) : [];
const projectorProcess = process.argv.includes('--projector-process');
const allInOne = process.argv.includes('--all-in-one');
const mixIndex = process.argv.indexOf('--mix');
const mix = mixIndex >= 0 ? parseMix(process.argv[mixIndex + 1] ?? '') : DEFAULT_MIX;
/** The API process counts to run against: the all-in-one process is one; a soak runs N only. */
const countsToRun = (): number[] => {
  if (allInOne) return [1];
  if (soak) return [processes];
  return [...new Set([1, processes])];
};
const counts = countsToRun();

interface IntervalLine {
  readonly t: number;
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly cpu: Record<string, number>;
  readonly rssMiB: Record<string, number>;
  /** The live heap after each process's last full collection: what a leak makes grow. */
  readonly liveHeapMiB: Record<string, number>;
  /**
   * V8's committed heap after that collection: above the live heap, the room V8 keeps for
   * allocation and the free space between surviving objects; the rest of the resident memory
   * is node's own, native buffers and SQLite's.
   */
  readonly heapMiB: Record<string, number>;
  readonly load: number;
}

const cpuPercent = (
  before: Record<string, number>,
  after: Record<string, number>,
  elapsedS: number,
): Record<string, number> =>
  Object.fromEntries(
    Object.entries(after).map(([name, s]) => [
      name,
      Math.round((100 * (s - (before[name] ?? s))) / elapsedS),
    ]),
  );

const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-bench-load-logs-'));

const runAgainst = async (apiProcesses: number) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-bench-load-'));
  const options = { apiNodeArguments, nodeArguments: nodeArguments.filter(Boolean) };
  const setup = allInOne
    ? await startAllInOne(dir, logDir, options)
    : await startLoadServices(dir, apiProcesses, logDir, {
        ...options,
        apiEnvironment: { HAWSER_API_PROJECTOR_PROCESS: String(projectorProcess) },
      });
  const load = new MixedLoad(setup.base, clients, TOKEN, mix);
  const services: readonly Service[] = setup.services;
  try {
    await load.prepare(PROJECT, seedShares);
    if (warmupS > 0) {
      const warmup = new Tally();
      await load.run(warmupS, (outcome) => warmup.add(outcome));
      console.log(
        `warm-up ${warmupS} s, not counted: ${Math.round(warmup.latencies.length / warmupS)} requests/s`,
      );
    }
    console.log(
      `\n${allInOne ? 'the all-in-one process' : `${apiProcesses} API process(es)`}, ${clients} clients, ${seconds} s; load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    const total = new Tally();
    let span = new Tally();
    const lines: IntervalLine[] = [];
    const started = Date.now();
    let spanStarted = started;
    let cpuBefore = cpuSeconds(services);
    const sample = () => {
      const now = Date.now();
      const elapsed = (now - spanStarted) / 1000;
      const cpuAfter = cpuSeconds(services);
      const line: IntervalLine = {
        t: Math.round((now - started) / 1000),
        rps: Math.round(span.latencies.length / elapsed),
        p50: round(span.percentile(50), 1),
        p99: round(span.percentile(99), 1),
        cpu: cpuPercent(cpuBefore, cpuAfter, elapsed),
        rssMiB: residentMemory(services),
        liveHeapMiB: heapAfterLastFullGc(services, setup.gcTrace, 'liveMiB'),
        heapMiB: heapAfterLastFullGc(services, setup.gcTrace, 'committedMiB'),
        load: round(os.loadavg()[0] ?? 0, 1),
      };
      lines.push(line);
      console.log(JSON.stringify(line));
      span = new Tally();
      spanStarted = now;
      cpuBefore = cpuAfter;
    };
    const cpuAtStart = cpuBefore;
    const clientCpuAtStart = process.cpuUsage();
    const timer = setInterval(sample, sampleS * 1000);
    await load.run(seconds, (outcome) => {
      total.add(outcome);
      span.add(outcome);
    });
    clearInterval(timer);
    // The clients share the machine's cores with the services: what they take is not theirs.
    const clientCpu = process.cpuUsage(clientCpuAtStart);
    // What a request costs the API processes, whatever share of the cores they were given.
    const cpuAtEnd = Object.entries(cpuSeconds(services));
    const cpuUsedS = (entries: typeof cpuAtEnd) =>
      entries.reduce((sum, [name, s]) => sum + s - (cpuAtStart[name] ?? 0), 0);
    const apiCpuS = cpuUsedS(cpuAtEnd.filter(([name]) => name.startsWith('api')));
    // Every service's: the API's can fall by moving work to the scheduler or share node.
    const allCpuS = cpuUsedS(cpuAtEnd);
    const firstMinute = lines.find((l) => l.t >= 60) ?? lines[0];
    const range = (values: readonly number[]) =>
      values.length === 0 ? [] : [Math.min(...values), Math.max(...values)];
    const sum = (mib: Record<string, number> | undefined) =>
      Math.round(Object.values(mib ?? {}).reduce((a, b) => a + b, 0));
    const perRequest = (ms: number) => round(ms / Math.max(1, total.latencies.length), 2);
    const summary = {
      ...(allInOne && { layout: 'all-in-one' }),
      apiProcesses,
      clients,
      seconds,
      mix: mix.map(([operation, weight]) => `${operation}:${weight}`).join(','),
      requests: total.latencies.length,
      rps: Math.round(total.latencies.length / seconds),
      p50: round(total.percentile(50), 1),
      p99: round(total.percentile(99), 1),
      byOperation: total.byOperationPercentiles(),
      apiCpuMsPerRequest: perRequest(1000 * apiCpuS),
      allCpuMsPerRequest: perRequest(1000 * allCpuS),
      clientCpuMsPerRequest: perRequest((clientCpu.user + clientCpu.system) / 1000),
      failures: total.failures(),
      rssTotalMiB: {
        afterFirstMinute: sum(firstMinute?.rssMiB),
        atEnd: sum(lines.at(-1)?.rssMiB),
        // Each process's moves with the garbage between its full collections: its envelope.
        rangeAfterFirstMinute: range(lines.filter((l) => l.t > 60).map((l) => sum(l.rssMiB))),
      },
      liveHeapTotalMiB: {
        afterFirstMinute: sum(firstMinute?.liveHeapMiB),
        atEnd: sum(lines.at(-1)?.liveHeapMiB),
      },
      heapTotalMiB: {
        afterFirstMinute: sum(firstMinute?.heapMiB),
        atEnd: sum(lines.at(-1)?.heapMiB),
      },
      loadAverage: os.loadavg().map((l) => round(l, 1)),
    };
    console.log(`summary ${JSON.stringify(summary)}`);
    return summary;
  } finally {
    load.close();
    await setup.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
};

const main = async () => {
  console.log(`services' output in ${logDir}`);
  console.log(
    `cores ${os.cpus().length}, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  const results = [];
  for (const count of counts) results.push(await runAgainst(count));
  console.log(
    '\napi processes | req/s | p50 ms | p99 ms | API CPU ms/request | all CPU ms/request | RSS MiB after 1st minute -> end | live heap MiB after 1st minute -> end',
  );
  for (const r of results) {
    console.log(
      `${allInOne ? 'all-in-one' : r.apiProcesses} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.apiCpuMsPerRequest} | ${r.allCpuMsPerRequest} | ${r.rssTotalMiB.afterFirstMinute} -> ${r.rssTotalMiB.atEnd} | ${r.liveHeapTotalMiB.afterFirstMinute} -> ${r.liveHeapTotalMiB.atEnd}`,
    );
  }
};

await main();
