import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SimulatedBackendConfig } from '#hawser/drivers';
import { freePort } from '#hawser/platform';
import { FullGcTrace, type HeapAfterGc } from './gc-trace.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const entry = (app: string) => path.join(ROOT, `dist/apps/${app}/src/main.js`);

/** One started service: its process and the text it printed. */
export interface Service {
  readonly name: string;
  readonly child: ChildProcess;
  output: string;
}

/** Starts `command` and resolves once it has printed `ready`. */
const startService = (
  name: string,
  command: string,
  args: readonly string[],
  env: Record<string, string>,
  ready: string,
  logFile?: string,
  gcTrace?: FullGcTrace,
  timeoutMs = 120_000,
): Promise<Service> => {
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const service: Service = { name, child, output: '' };
  if (logFile) {
    const log = fs.createWriteStream(logFile);
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
  }
  if (gcTrace) child.stdout?.on('data', (chunk: Buffer) => gcTrace.feed(chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${name} not ready within ${timeoutMs} ms:\n${service.output}`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      // Only the start is kept: a long run's logs would otherwise fill this process's memory.
      if (service.output.length < 100_000) service.output += chunk.toString();
      if (service.output.includes(ready)) {
        clearTimeout(timer);
        resolve(service);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code ?? signal}):\n${service.output}`));
    });
  });
};

const natsServerBinary = (): string => {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/sbin'];
  const found = dirs.map((dir) => path.join(dir, 'nats-server')).find((f) => fs.existsSync(f));
  if (!found) throw new Error('nats-server is not installed (apt-get install nats-server)');
  return found;
};

export interface LoadServices {
  readonly base: string;
  readonly services: readonly Service[];
  /** The full collections of the Node processes (V8 prints them: `--trace-gc`). */
  readonly gcTrace: FullGcTrace;
  stop(): Promise<void>;
}

export interface LoadServicesOptions {
  /** Node's options for the API processes alone. */
  readonly apiNodeArguments?: readonly string[];
  /** Added to the API processes' environment. */
  readonly apiEnvironment?: Record<string, string>;
  /** Node's options for every service (a cluster's workers inherit them). */
  readonly nodeArguments?: readonly string[];
  /** The share node's back ends: one simulated back end in one zone unless given. */
  readonly backends?: readonly SimulatedBackendConfig[];
}

const ONE_BACKEND: readonly SimulatedBackendConfig[] = [
  {
    name: 'load@sim',
    driver: 'simulated',
    availabilityZone: 'nova',
    pools: [{ name: 'p1', totalCapacityGb: 10_000_000 }],
  },
];

/** Starts the services of one layout, in order, and stops them in reverse. */
const startLayout = async (
  dataDir: string,
  options: LoadServicesOptions,
  start: (setting: {
    readonly services: Service[];
    readonly gcTrace: FullGcTrace;
    readonly backendsFile: string;
    readonly port: number;
    /** Node's arguments for a service: V8's full collections traced, then the given ones. */
    readonly traced: (app: string) => string[];
  }) => Promise<void>,
): Promise<LoadServices> => {
  const port = await freePort();
  const backendsFile = path.join(dataDir, 'backends.json');
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(backendsFile, JSON.stringify(options.backends ?? ONE_BACKEND));
  const services: Service[] = [];
  const gcTrace = new FullGcTrace();
  const { nodeArguments = [] } = options;
  const traced = (app: string) => [...FullGcTrace.NODE_ARGUMENTS, ...nodeArguments, entry(app)];
  const stop = async () => {
    for (const service of [...services].reverse()) {
      const { child } = service;
      if (child.exitCode !== null || child.signalCode !== null) continue;
      await new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      });
    }
  };
  try {
    await start({ services, gcTrace, backendsFile, port, traced });
  } catch (error) {
    await stop();
    throw error;
  }
  return { base: `http://127.0.0.1:${port}`, services, gcTrace, stop };
};

const commonEnvironment = (dataDir: string) => ({
  HAWSER_DATA_DIR: path.join(dataDir, 'data'),
  HAWSER_AUTH: 'noauth',
  HAWSER_LOG_LEVEL: 'warn',
});

/**
 * The multi-process setup of the README on simulated back ends without latency: nats-server,
 * the API as `apiProcesses` processes on one port, a scheduler and one share node, their
 * output (warnings and errors, and V8's line after each full collection) written to files in
 * `logDir`.
 */
export const startLoadServices = (
  dataDir: string,
  apiProcesses: number,
  logDir: string,
  options: LoadServicesOptions = {},
): Promise<LoadServices> =>
  startLayout(dataDir, options, async ({ services, gcTrace, backendsFile, port, traced }) => {
    const { apiNodeArguments = [], apiEnvironment = {} } = options;
    const natsPort = await freePort();
    const env = { ...commonEnvironment(dataDir), NATS_URL: `nats://127.0.0.1:${natsPort}` };
    services.push(
      await startService(
        'nats-server',
        natsServerBinary(),
        ['--addr', '127.0.0.1', '--port', String(natsPort)],
        {},
        'Server is ready',
      ),
    );
    const node = process.execPath;
    services.push(
      await startService(
        'api',
        node,
        [...apiNodeArguments, ...traced('api')],
        {
          ...env,
          ...apiEnvironment,
          PORT: String(port),
          HAWSER_API_PROCESSES: String(apiProcesses),
        },
        'Hawser API listening',
        path.join(logDir, `api-${apiProcesses}.log`),
        gcTrace,
      ),
    );
    services.push(
      await startService(
        'scheduler',
        node,
        traced('scheduler'),
        env,
        'placing shares',
        path.join(logDir, `scheduler-${apiProcesses}.log`),
        gcTrace,
      ),
    );
    services.push(
      await startService(
        'share-node',
        node,
        traced('share-node'),
        { ...env, HAWSER_NODE_NAME: 'load', HAWSER_BACKENDS: backendsFile },
        'capability reports to NATS',
        path.join(logDir, `share-node-${apiProcesses}.log`),
        gcTrace,
      ),
    );
  });

/**
 * The embedded default (`npm start`) on the same simulated back end: one process that serves
 * the API, projects, schedules and drives the back end, without NATS. Its service is named
 * `api`, as the process that serves the API: its CPU is the API's and everything else's.
 */
export const startAllInOne = (
  dataDir: string,
  logDir: string,
  options: LoadServicesOptions = {},
): Promise<LoadServices> =>
  startLayout(dataDir, options, async ({ services, gcTrace, backendsFile, port, traced }) => {
    const { apiNodeArguments = [], apiEnvironment = {} } = options;
    services.push(
      await startService(
        'api',
        process.execPath,
        [...apiNodeArguments, ...traced('hawser')],
        {
          ...commonEnvironment(dataDir),
          ...apiEnvironment,
          PORT: String(port),
          HAWSER_BACKENDS: backendsFile,
        },
        'Hawser listening',
        path.join(logDir, 'all-in-one.log'),
        gcTrace,
      ),
    );
  });

/** The pids of a service and of its children (the API's cluster workers). */
const pidsOf = (pid: number): number[] => {
  let children: number[] = [];
  try {
    children = fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    // gone
  }
  return [pid, ...children.flatMap(pidsOf)];
};

const rssMiB = (pid: number): number => {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return kib / 1024;
  } catch {
    return 0;
  }
};

const CLOCK_TICKS_PER_SECOND = 100;

const cpuOf = (pid: number): number => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime, fields 14 and 15 of the line (11 and 12 after the name).
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return 0;
  }
};

/** `measure` of every process of the services, by name (`api#2`: the API's second worker). */
const perProcess = (
  services: readonly Service[],
  measure: (pid: number) => number,
): Record<string, number> => {
  const measured: Record<string, number> = {};
  for (const service of services) {
    const pids = service.child.pid === undefined ? [] : pidsOf(service.child.pid);
    pids.forEach((pid, i) => {
      measured[i === 0 ? service.name : `${service.name}#${i}`] = measure(pid);
    });
  }
  return measured;
};

/** Resident memory in MiB of every process of the services. */
export const residentMemory = (services: readonly Service[]): Record<string, number> =>
  perProcess(services, (pid) => Math.round(rssMiB(pid)));

/**
 * V8's heap in MiB of every Node process of the services after its last full collection (absent
 * before its first): what the collection kept (`liveMiB`) or what V8 holds for the heap, garbage
 * and free space between objects included (`committedMiB`).
 */
export const heapAfterLastFullGc = (
  services: readonly Service[],
  gcTrace: FullGcTrace,
  measure: keyof HeapAfterGc,
): Record<string, number> =>
  Object.fromEntries(
    Object.entries(perProcess(services, (pid) => gcTrace.of(pid)?.[measure] ?? -1)).filter(
      ([, mib]) => mib >= 0,
    ),
  );

/** CPU seconds used so far by every process of the services. */
export const cpuSeconds = (services: readonly Service[]): Record<string, number> =>
  perProcess(services, cpuOf);
