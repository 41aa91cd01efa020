import fs from 'node:fs';
import path from 'node:path';
import {
  againstManila,
  externalHawser,
  inProcessHawser,
  servicesHawser,
  type ClosableTarget,
} from './bench-targets.js';
import {
  createReplicasAtOnce,
  createSharesAtOnce,
  ensureShareTypes,
  type BenchTarget,
  type PhaseResult,
} from './manila-workload.js';
import { loadAverage } from './process-cpu.js';
import { exitWithUsageIfAsked } from '../usage.js';

/** What the bench does and its options, printed by `--help`. */
const USAGE = `
The create path end to end, on simulated back ends with no latency: N shares requested at
once until every one is \`available\`, M replicas requested at once until every one is
\`in_sync\`, and once a large batch (1,000 shares). Prints one JSON line per phase (with the
load average, since the machine may be shared) and a summary with the median of the rounds.

--external          the server in a child process, the client here (real HTTP, keep-alive)
--services N        instead, the multi-process setup: nats-server, N API processes on one
                    port, a scheduler and a share node, each a process of its own
--against URL       also drive a Manila endpoint (…/v2/<project>, noauth) in the same run,
                    and print the ratio of the rates; --against-pids 1,2 or
                    --against-pid-dir DIR (files of pids) for its CPU per share
                    (--against-connections C: 8 by default, as Manila's bench.py)
--shares N --replicas M --large L --rounds R --against-rounds R2 --poll-ms P
--warmup W          rounds run first and reported, but left out of the medians (10 by
                    default: a server just started runs its first rounds while V8 is still
                    compiling its hot code); --against-warmup W2 for Manila (0 by default)
--server-node-options "…"   node options of the external server (e.g. --heap-prof)
--profile-dir DIR   a CPU profile of the external server (node --cpu-prof) written to DIR;
                    \`node cpu-profile-stages.js DIR/*.cpuprofile\` summarises it
`;
exitWithUsageIfAsked(USAGE);

const flag = (name: string) => process.argv.includes(name);
const option = (name: string): string | undefined => {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
};
const count = (name: string, fallback: number) => Number(option(name) ?? fallback);

const SHARES = count('--shares', 100);
const REPLICAS = count('--replicas', 50);
const LARGE = count('--large', 1_000);
const ROUNDS = count('--rounds', 5);
const WARMUP = count('--warmup', 10);
const AGAINST_WARMUP = count('--against-warmup', 0);

const againstPids = (): number[] => {
  const listed = option('--against-pids');
  if (listed !== undefined) return listed.split(',').map(Number);
  const dir = option('--against-pid-dir');
  if (dir === undefined) return [];
  return fs
    .readdirSync(dir)
    .filter((file) => file.endsWith('.pid'))
    .map((file) => Number(fs.readFileSync(path.join(dir, file), 'utf8').trim()));
};

interface Rounds {
  readonly shares: PhaseResult[];
  readonly replicas: PhaseResult[];
}

const report = (
  target: BenchTarget,
  phase: string,
  round: number,
  result: PhaseResult,
  warmup = false,
) => {
  console.log(
    JSON.stringify({
      target: target.name,
      phase,
      round,
      ...(warmup && { warmup }),
      count: result.count,
      acceptedS: round3(result.acceptedS),
      doneS: round3(result.doneS),
      perSecond: Math.round((10 * result.count) / result.doneS) / 10,
      serverCpuMsPerItem: result.cpuPerItemMs === undefined ? null : round3(result.cpuPerItemMs),
      loadAverage: loadAverage(),
    }),
  );
};

const round3 = (value: number) => Math.round(value * 1000) / 1000;

/** `warmup` rounds, reported and left out, then `rounds` rounds, whose results are returned. */
const runRounds = async (target: BenchTarget, rounds: number, warmup: number): Promise<Rounds> => {
  await ensureShareTypes(target);
  const result: Rounds = { shares: [], replicas: [] };
  for (let round = 1; round <= warmup + rounds; round++) {
    const warming = round <= warmup;
    const shares = await createSharesAtOnce(target, SHARES);
    report(target, 'shares', round, shares, warming);
    const replicas = await createReplicasAtOnce(target, REPLICAS);
    report(target, 'replicas', round, replicas, warming);
    if (warming) continue;
    result.shares.push(shares);
    result.replicas.push(replicas);
  }
  return result;
};

const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

const summary = (name: string, rounds: Rounds, warmup: number) => {
  const line = (what: string, results: readonly PhaseResult[]) => {
    const done = median(results.map((r) => r.doneS));
    const cpu = results.flatMap((r) => (r.cpuPerItemMs === undefined ? [] : [r.cpuPerItemMs]));
    const count = results[0]?.count ?? 0;
    return (
      `  ${count} ${what}: median ${done.toFixed(3)} s (${(count / done).toFixed(1)}/s), ` +
      `best ${Math.min(...results.map((r) => r.doneS)).toFixed(3)} s` +
      (cpu.length > 0 ? `, server CPU ${median(cpu).toFixed(2)} ms each` : '')
    );
  };
  return [
    `${name}, ${rounds.shares.length} rounds${warmup > 0 ? ` after ${warmup} of warm-up` : ''}:`,
    line('shares -> available', rounds.shares),
    line('replicas -> in_sync', rounds.replicas),
  ];
};

const serverNodeOptions = (): string[] => {
  const given = (option('--server-node-options') ?? '').split(' ').filter(Boolean);
  const profileDir = option('--profile-dir');
  return profileDir === undefined
    ? given
    : [...given, '--cpu-prof', `--cpu-prof-dir=${path.resolve(profileDir)}`];
};

const main = async () => {
  if (option('--profile-dir') !== undefined && !flag('--external')) {
    throw new Error('--profile-dir profiles the external server: add --external');
  }
  const pollMs = count('--poll-ms', 25);
  const services = option('--services');
  if (services !== undefined && !(Number.isInteger(Number(services)) && Number(services) >= 1)) {
    throw new Error(`--services takes a number of API processes (1 or more), not ${services}`);
  }
  // Manila's side first: a bad option (its pid files) fails before a server is started.
  const url = option('--against');
  const manila =
    url === undefined
      ? undefined
      : againstManila(url, {
          pids: againstPids(),
          zones: (option('--against-zones') ?? 'az1,az2').split(',') as [string, string],
          pollMs: count('--against-poll-ms', 250),
          connections: count('--against-connections', 8),
        });
  const hawser: ClosableTarget =
    services !== undefined
      ? await servicesHawser(pollMs, Number(services))
      : flag('--external')
        ? await externalHawser(pollMs, serverNodeOptions())
        : await inProcessHawser(pollMs);
  try {
    const ours = await runRounds(hawser, ROUNDS, WARMUP);
    if (LARGE > 0) report(hawser, 'large', 1, await createSharesAtOnce(hawser, LARGE));
    const theirs =
      manila === undefined
        ? undefined
        : await runRounds(manila, count('--against-rounds', 1), AGAINST_WARMUP);
    console.log(
      [
        '',
        ...summary(hawser.name, ours, WARMUP),
        ...(theirs && manila ? summary(manila.name, theirs, AGAINST_WARMUP) : []),
      ].join('\n'),
    );
    if (theirs !== undefined) {
      const rate = (results: readonly PhaseResult[]) =>
        median(results.map((r) => r.count / r.doneS));
      console.log(
        `  ratio of the rates: shares ${(rate(ours.shares) / rate(theirs.shares)).toFixed(1)}x, ` +
          `replicas ${(rate(ours.replicas) / rate(theirs.replicas)).toFixed(1)}x`,
      );
    }
    console.log(`  load average at the end: ${loadAverage()}`);
  } finally {
    await hawser.close();
  }
};

await main();
