/**
 * Hawser's scheduler on the shared benchmark kit's workloads:
 *   npm run bench:scheduler -- --cloud FILE [--repeat R] [--warmup W] [--decisions OUT.jsonl] [--cpu-times]
 * Prints the kit's output contract (one JSON line per workload, then ALL) on stdout.
 * `--warmup W` (default 1) replays the workload W times untimed first, on fresh schedulers,
 * so the JIT has compiled the hot paths; the garbage of loading is collected before each run.
 * Each scheduler is loaded and primed untimed, like a long-running scheduler that has seen the
 * cloud's share types: `FilterScheduler.prime` prepares the pools passing the capability, zone
 * and liveness filters for each distinct share type, protocol and request kind in every zone
 * (and none), places nothing, and leaves capacity and hints to the timed decisions.
 * `--cpu-times` also reads the process CPU time around every request (p50_cpu_us, p99_cpu_us),
 * which tells the scheduler's own cost from time lost to other jobs, at the price of two
 * system calls per request inside the ALL line's loop.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import {
  FilterScheduler,
  PoolStateRegistry,
  type SchedulingRequest,
  type SchedulingResult,
} from '#hawser/scheduler';
import { decisionsHash, median, percentile, round } from './bench-statistics.js';
import {
  backendReports,
  cloudRequests,
  primingRequests,
  schedulerConfig,
  type CloudFile,
} from './cloud-file.js';

const IMPL = 'hawser-0.1.0';

/** What the output keeps of a result (holding every full result would skew garbage collection). */
interface Decision {
  readonly host: string | null;
  readonly candidates: number;
  readonly weight?: number;
  readonly runnerUpWeight?: number | null;
  readonly topTies?: number;
  readonly lastFilter?: string | null;
}

const decisionOf = (result: SchedulingResult): Decision =>
  result.outcome === 'placed'
    ? {
        host: result.host,
        candidates: result.candidates,
        weight: result.weight,
        runnerUpWeight: result.runnerUpWeight,
        topTies: result.topTies,
      }
    : { host: null, candidates: 0, lastFilter: result.lastFilter };

interface Run {
  readonly latenciesUs: number[];
  /** Process CPU time per request: tells the scheduler's own cost from time lost to other jobs. */
  readonly cpuUs: number[];
  readonly results: Decision[];
  readonly wallSeconds: number;
  /** CPU time of the process over the loop: well below the wall time means other jobs ran. */
  readonly cpuSeconds: number;
}

const loadScheduler = (cloud: CloudFile): FilterScheduler => {
  // Reports carry a fixed past timestamp and nothing goes down, as in the kit's Manila driver.
  const registry = new PoolStateRegistry({
    serviceDownTimeMs: Infinity,
    defaultMaxOverSubscriptionRatio: cloud.config.max_over_subscription_ratio,
  });
  for (const report of backendReports(cloud)) {
    registry.report(report.backend, report.pools, 0, report.availabilityZone);
  }
  registry.refresh(0);
  const scheduler = new FilterScheduler(registry, schedulerConfig(cloud));
  for (const request of primingRequests(cloud)) scheduler.prime(request, 0);
  return scheduler;
};

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const runOnce = (
  scheduler: FilterScheduler,
  requests: readonly SchedulingRequest[],
  cpuTimes: boolean,
): Run => {
  collectGarbage();
  const latenciesUs: number[] = new Array<number>(requests.length);
  const cpuUs: number[] = [];
  const results: Decision[] = new Array<Decision>(requests.length);
  const cpuStart = process.cpuUsage();
  const loopStart = process.hrtime.bigint();
  for (let i = 0; i < requests.length; i++) {
    const cpuBefore = cpuTimes ? process.cpuUsage() : undefined;
    const started = process.hrtime.bigint();
    const result = scheduler.schedule(requests[i] as SchedulingRequest, i + 1);
    latenciesUs[i] = Number(process.hrtime.bigint() - started) / 1000;
    results[i] = decisionOf(result);
    if (cpuBefore) {
      const cpu = process.cpuUsage(cpuBefore);
      cpuUs.push(cpu.user + cpu.system);
    }
  }
  const wallSeconds = Number(process.hrtime.bigint() - loopStart) / 1e9;
  const cpu = process.cpuUsage(cpuStart);
  return { latenciesUs, cpuUs, results, wallSeconds, cpuSeconds: (cpu.user + cpu.system) / 1e6 };
};

const hostOf = (decision: Decision): string | null => decision.host;

const summarise = (latencies: readonly number[]) => {
  const sorted = [...latencies].sort((a, b) => a - b);
  const sum = sorted.reduce((total, value) => total + value, 0);
  return {
    req_per_s: sorted.length / (sum / 1e6),
    mean_us: sum / sorted.length,
    p50_us: percentile(sorted, 50),
    p99_us: percentile(sorted, 99),
  };
};

const main = (): void => {
  const { values } = parseArgs({
    options: {
      cloud: { type: 'string' },
      repeat: { type: 'string', default: '1' },
      warmup: { type: 'string', default: '1' },
      decisions: { type: 'string' },
      'cpu-times': { type: 'boolean', default: false },
    },
  });
  if (!values.cloud) throw new Error('--cloud FILE is required');
  const raw = readFileSync(values.cloud);
  const cloud = JSON.parse(raw.toString('utf8')) as CloudFile;
  const requests = cloudRequests(cloud);
  const repeats = Math.max(1, Number(values.repeat));
  const warmups = Math.max(0, Number(values.warmup));
  const cpuTimes = values['cpu-times'] === true;
  // Every run gets a fresh scheduler, all loaded up front and kept alive: a scheduler that dies
  // between runs makes V8 drop the machine code tied to its objects, which a long-lived
  // scheduler process never pays.
  const schedulers = Array.from({ length: warmups + repeats }, () => loadScheduler(cloud));
  schedulers.slice(0, warmups).forEach((scheduler) => runOnce(scheduler, requests, cpuTimes));
  const runs = schedulers.slice(warmups).map((scheduler) => runOnce(scheduler, requests, cpuTimes));

  const hosts = (runs[0] as Run).results.map(hostOf);
  for (const run of runs.slice(1)) {
    if (run.results.some((result, i) => hostOf(result) !== hosts[i]))
      throw new Error('runs made different decisions');
  }
  const common = {
    impl: IMPL,
    cloud: basename(values.cloud),
    pools: cloud.pools.length,
    repeats,
    warmup_runs: warmups,
  };
  const workloads = [...new Set(cloud.requests.map((request) => request.workload))];
  const lines: object[] = [];
  for (const workload of workloads) {
    const indexes = cloud.requests.flatMap((request, i) =>
      request.workload === workload ? [i] : [],
    );
    const perRun = runs.map((run) => summarise(indexes.map((i) => run.latenciesUs[i] as number)));
    const results = indexes.map((i) => (runs[0] as Run).results[i] as Decision);
    lines.push({
      ...common,
      workload,
      kind: [...new Set(indexes.map((i) => cloud.requests[i]?.kind))].join(','),
      requests: indexes.length,
      ...medians(perRun),
      placed: results.filter((decision) => decision.host !== null).length,
      no_valid_host: results.filter((decision) => decision.host === null).length,
      errors: 0,
      decisions_sha256: decisionsHash(indexes.map((i) => hosts[i] ?? null)),
    });
  }
  const perRun = runs.map((run) => ({
    ...summarise(run.latenciesUs),
    req_per_s: requests.length / run.wallSeconds,
  }));
  lines.push({
    ...common,
    workload: 'ALL',
    kind: 'all',
    requests: requests.length,
    ...medians(perRun),
    placed: hosts.filter((host) => host !== null).length,
    no_valid_host: hosts.filter((host) => host === null).length,
    errors: 0,
    decisions_sha256: decisionsHash(hosts),
    cloud_sha256: createHash('sha256').update(raw).digest('hex'),
    req_per_s_runs: perRun.map((run) => round(run.req_per_s, 2)),
    ...(cpuTimes ? cpuPercentiles(runs) : {}),
    cpu_over_wall_min: round(Math.min(...runs.map((run) => run.cpuSeconds / run.wallSeconds)), 3),
    distinct_pools_chosen: new Set(hosts.filter((host) => host !== null)).size,
  });
  for (const line of lines) process.stdout.write(`${JSON.stringify(line)}\n`);
  if (values.decisions) writeDecisions(values.decisions, cloud, (runs[0] as Run).results);
};

const cpuPercentiles = (runs: readonly Run[]) => {
  const at = (q: number) =>
    round(
      median(
        runs.map((run) =>
          percentile(
            [...run.cpuUs].sort((a, b) => a - b),
            q,
          ),
        ),
      ),
      2,
    );
  return { p50_cpu_us: at(50), p99_cpu_us: at(99) };
};

const medians = (runs: readonly ReturnType<typeof summarise>[]) => ({
  req_per_s: round(median(runs.map((run) => run.req_per_s)), 2),
  mean_us: round(median(runs.map((run) => run.mean_us)), 2),
  p50_us: round(median(runs.map((run) => run.p50_us)), 2),
  p99_us: round(median(runs.map((run) => run.p99_us)), 2),
});

const writeDecisions = (path: string, cloud: CloudFile, results: readonly Decision[]): void => {
  const lines = results.map((decision, i) => {
    const request = cloud.requests[i];
    const common = { i, workload: request?.workload, kind: request?.kind };
    if (decision.host !== null) {
      return JSON.stringify({
        ...common,
        host: decision.host,
        candidates: decision.candidates,
        weight: decision.weight,
        runner_up_weight: decision.runnerUpWeight,
        top_ties: decision.topTies,
      });
    }
    return JSON.stringify({
      ...common,
      error: 'NoValidHost',
      host: null,
      candidates: 0,
      last_filter: decision.lastFilter,
    });
  });
  writeFileSync(path, `${lines.join('\n')}\n`);
};

main();
