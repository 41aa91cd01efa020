import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createInterface } from 'node:readline';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLoadServices } from '../load/load-services.js';
import { benchBackends, startBenchServer } from './bench-server.js';
import { keepAliveAgent, type BenchProject, type BenchTarget } from './manila-workload.js';
import { treeCpuSeconds } from './process-cpu.js';

/** Under Manila's default quota of 50 shares a project, which Hawser keeps. */
const SHARES_PER_PROJECT = 25;
const HAWSER_ZONES = ['az-1', 'az-2'] as const;

const projectId = (seed: string) => createHash('md5').update(seed).digest('hex');

/** Hawser's noauth tokens (`user:project`): fresh projects for every batch. */
const HAWSER_CONNECTIONS = 64;

const freshProjects = (base: string) => {
  const agent = keepAliveAgent(HAWSER_CONNECTIONS);
  return (batch: string, count: number): BenchProject[] =>
    Array.from({ length: Math.max(1, Math.ceil(count / SHARES_PER_PROJECT)) }, (_, p) => ({
      base,
      token: `bench:${projectId(`${batch}-${p}`)}`,
      agent,
    }));
};

export interface ClosableTarget extends BenchTarget {
  close(): Promise<void>;
}

/** The server inside the bench's own process: its CPU includes the client's. */
export const inProcessHawser = async (pollMs: number): Promise<ClosableTarget> => {
  const server = await startBenchServer();
  const cpu = () => {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1e6;
  };
  return {
    name: 'hawser (in-process client)',
    zones: HAWSER_ZONES,
    projects: freshProjects(server.base),
    cpuSeconds: cpu,
    pollMs,
    close: () => server.close(),
  };
};

/** The server in a child process of its own, the client here, over HTTP with keep-alive. */
export const externalHawser = async (
  pollMs: number,
  nodeOptions: readonly string[],
): Promise<ClosableTarget> => {
  const script = fileURLToPath(new URL('./bench-server.js', import.meta.url));
  const child = spawn(process.execPath, [...nodeOptions, script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const base = await announcedBase(child);
  const pid = child.pid as number;
  return {
    name: 'hawser (external client)',
    zones: HAWSER_ZONES,
    projects: freshProjects(base),
    cpuSeconds: () => treeCpuSeconds([pid]),
    pollMs,
    close: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
};

/**
 * The multi-process setup (nats-server, `apiProcesses` API processes on one port, a scheduler
 * and a share node over NATS, each in its own process) on the same back ends; the CPU is every
 * one of their processes'.
 */
export const servicesHawser = async (
  pollMs: number,
  apiProcesses: number,
): Promise<ClosableTarget> => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-bench-services-'));
  const setup = await startLoadServices(dir, apiProcesses, dir, { backends: benchBackends() });
  const pids = setup.services.map((service) => service.child.pid as number);
  return {
    name: `hawser (${apiProcesses} API process(es), a scheduler, a share node; external client)`,
    zones: HAWSER_ZONES,
    projects: freshProjects(`${setup.base}/v2`),
    cpuSeconds: () => treeCpuSeconds(pids),
    pollMs,
    close: async () => {
      await setup.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
};

/**
 * The server's URL, from the line it announces it with. Other lines (what node options such as
 * `--trace-gc` print to stdout) go to the bench's stderr, so they neither break the announcement
 * nor fill the pipe.
 */
const announcedBase = (child: ChildProcess): Promise<string> =>
  new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.on('line', (line) => {
      if (line.startsWith('{"base":')) resolve((JSON.parse(line) as { base: string }).base);
      else process.stderr.write(`${line}\n`);
    });
    child.once('exit', (code) => reject(new Error(`the bench server exited (${code})`)));
  });

/**
 * Any Manila v2 endpoint with noauth tokens (`user:project`), such as the reference Manila: the
 * URL carries the project (its last segment). CPU comes from the process trees of `pids`.
 */
export const againstManila = (
  url: string,
  options: {
    pids: readonly number[];
    zones: readonly [string, string];
    pollMs: number;
    /** Manila's API runs out of database connections well before 64 clients. */
    connections: number;
  },
): BenchTarget => {
  const base = url.replace(/\/+$/, '');
  const project = base.split('/').pop() ?? '';
  if (!/^[0-9a-f-]{32,36}$/.test(project)) {
    throw new Error(`--against ${url}: the URL must end with the project id (…/v2/<project>)`);
  }
  const only = { base, token: `bench:${project}`, agent: keepAliveAgent(options.connections) };
  return {
    name: `manila at ${base}`,
    zones: options.zones,
    projects: () => [only],
    cpuSeconds: () => (options.pids.length === 0 ? undefined : treeCpuSeconds(options.pids)),
    pollMs: options.pollMs,
  };
};
