import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '#hawser/platform';
import { simulatedBackends } from './simulated-backends.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
/** What `npm start` runs: the bundled all-in-one service. */
export const MAIN = path.join(ROOT, 'dist/bundle/hawser.js');

/** The built entry points, as the `npm start` scripts run them, and the line each prints once ready. */
export const ENTRY_POINTS = {
  hawser: { main: MAIN, ready: 'Hawser listening' },
  api: { main: path.join(ROOT, 'dist/bundle/api.js'), ready: 'Hawser API listening' },
  scheduler: {
    main: path.join(ROOT, 'dist/bundle/scheduler.js'),
    ready: 'Hawser scheduler placing shares',
  },
  shareNode: {
    main: path.join(ROOT, 'dist/bundle/share-node.js'),
    // Its ready line, not its refusal ("Hawser share node cannot start: ...").
    ready: 'capability reports to NATS',
  },
} as const;

export type EntryPoint = (typeof ENTRY_POINTS)[keyof typeof ENTRY_POINTS];

export { freePort };

/** A built service's output and exit code when it runs to its end (a refusal, `--help`). */
export const runUntilExit = (
  env: Record<string, string>,
  entry: EntryPoint = ENTRY_POINTS.hawser,
  args: readonly string[] = [],
): Promise<{ code: number | null; output: string }> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [entry.main, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });

/** A built Hawser service (the all-in-one unless told otherwise) as a child process. */
export class HawserProcess {
  private child: ChildProcess | undefined;
  output = '';

  constructor(
    private readonly env: Record<string, string>,
    private readonly entry: EntryPoint = ENTRY_POINTS.hawser,
  ) {}

  async start(timeoutMs = 30_000): Promise<void> {
    const child = spawn(process.execPath, [this.entry.main], {
      cwd: ROOT,
      env: { ...process.env, ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no start within ${timeoutMs} ms:\n${this.output}`)),
        timeoutMs,
      );
      const onData = (chunk: Buffer) => {
        this.output += chunk.toString();
        if (this.output.includes(this.entry.ready)) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      child.on('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`exited (${code ?? signal}) before listening:\n${this.output}`));
      });
    });
  }

  /** Ends the process at once, as a power cut would: no shutdown hooks run. */
  async kill(): Promise<void> {
    await this.stopWith('SIGKILL');
  }

  /** How the process ended, once it has: its signal (a fault-injection kill: SIGKILL) or code. */
  exited(): Promise<NodeJS.Signals | number | null> {
    const child = this.child;
    if (!child) return Promise.resolve(null);
    if (child.exitCode !== null || child.signalCode !== null) {
      return Promise.resolve(child.signalCode ?? child.exitCode);
    }
    return new Promise((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
  }

  /** Sends a signal that does not stop the process (SIGHUP: reload the policy file). */
  signal(signal: NodeJS.Signals): void {
    this.child?.kill(signal);
  }

  async stop(): Promise<number | null> {
    return this.stopWith('SIGTERM');
  }

  private stopWith(signal: NodeJS.Signals): Promise<number | null> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null)
      return Promise.resolve(null);
    return new Promise((resolve) => {
      child.once('exit', (code) => resolve(code));
      child.kill(signal);
    });
  }
}

/**
 * The all-in-one service as a child process on a free port, without authentication, on the
 * simulated back ends: its back ends' file and data directory (`<dir>/data`) under `dir`.
 * `env` adds to or overrides its settings. A service that fails to start is stopped.
 */
export const startSimulatedHawser = async (
  dir: string,
  env: Record<string, string> = {},
): Promise<{ service: HawserProcess; base: string }> => {
  const backends = path.join(dir, 'backends.json');
  fs.writeFileSync(backends, JSON.stringify(simulatedBackends()));
  const port = await freePort();
  const service = new HawserProcess({
    PORT: String(port),
    HAWSER_DATA_DIR: path.join(dir, 'data'),
    HAWSER_BACKENDS: backends,
    HAWSER_AUTH: 'noauth',
    ...env,
  });
  try {
    await service.start();
  } catch (error) {
    await service.stop();
    throw error;
  }
  return { service, base: `http://127.0.0.1:${port}` };
};
