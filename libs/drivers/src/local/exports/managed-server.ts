import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import { readPid } from './ganesha-reload.js';

export interface ManagedServerOptions {
  /** The server's name in reports: `ganesha.nfsd`, `smbd`. */
  readonly name: string;
  readonly executable: string;
  /** Arguments that run it in the foreground; they must hold `configFile`. */
  readonly args: readonly string[];
  readonly cwd: string;
  /** Runs it in a process group of its own: smbd signals its whole group when it stops. */
  readonly ownProcessGroup?: boolean;
  /** Its configuration file: a process whose command line names it is a server of ours. */
  readonly configFile: string;
  /** Where it writes its pid, read to find a server a killed share node left behind. */
  readonly pidFile: string;
  /** Writes the configuration and the shares it serves from the driver's state, before every (re)start. */
  readonly prepare: () => Promise<void>;
  /** Resolves true once the server answers, false when it will not (it is killed then). */
  readonly ready: (stillRunning: () => boolean) => Promise<boolean>;
  /** Told when the server dies, restarts or cannot start. */
  readonly report: (message: string) => void;
}

const STOP_WAIT_MS = 5_000;
const FIRST_RESTART_DELAY_MS = 250;
const LAST_RESTART_DELAY_MS = 10_000;

/**
 * A file server the share node runs in the foreground as its child: started with what the
 * driver's state gives, started again (configuration rewritten first) whenever it dies, stopped
 * with the driver. One left running by a share node that was killed is stopped first.
 */
export class ManagedServer {
  private child: ChildProcess | null = null;
  private stopping = false;
  private restartTimer: NodeJS.Timeout | null = null;
  private restartDelayMs = FIRST_RESTART_DELAY_MS;

  constructor(private readonly options: ManagedServerOptions) {}

  /** Resolves once the server answers; rejects (and keeps retrying) when it cannot start. */
  async start(): Promise<void> {
    this.stopping = false;
    await this.stopLeftover();
    try {
      await this.launch();
      this.restartDelayMs = FIRST_RESTART_DELAY_MS;
    } catch (error) {
      this.scheduleRestart();
      throw error;
    }
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_WAIT_MS);
    await exited;
    clearTimeout(timer);
  }

  private async launch(): Promise<void> {
    const { name, executable, args, cwd, ownProcessGroup } = this.options;
    await this.options.prepare();
    const child = spawn(executable, [...args], {
      stdio: 'ignore',
      cwd,
      detached: ownProcessGroup ?? false,
    });
    this.child = child;
    const running = () => child.exitCode === null && child.signalCode === null;
    const failed = new Promise<Error>((resolve) => {
      child.once('error', (error) => resolve(error));
      child.once('exit', (code, signal) =>
        resolve(new Error(`${name} exited (${signal ?? `code ${code}`}) while starting`)),
      );
    });
    const outcome = await Promise.race([this.options.ready(running), failed]);
    if (outcome !== true) {
      this.child = null;
      child.kill('SIGKILL');
      throw outcome instanceof Error ? outcome : new Error(`${name} did not start`);
    }
    if (!running()) {
      this.exited(child, child.exitCode, child.signalCode);
    } else {
      child.once('exit', (code, signal) => this.exited(child, code, signal));
    }
  }

  private exited(child: ChildProcess, code: number | null, signal: string | null): void {
    if (this.child !== child) return;
    this.child = null;
    if (this.stopping) return;
    this.options.report(
      `${this.options.name} exited (${signal ?? `code ${code}`}); restarting it with the current shares`,
    );
    this.scheduleRestart();
  }

  private scheduleRestart(): void {
    if (this.stopping || this.restartTimer) return;
    const delay = this.restartDelayMs;
    this.restartDelayMs = Math.min(delay * 2, LAST_RESTART_DELAY_MS);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      if (this.stopping || this.child) return;
      this.launch().then(
        () => {
          this.restartDelayMs = FIRST_RESTART_DELAY_MS;
          this.options.report(`${this.options.name} is serving again`);
        },
        (error: unknown) => {
          this.options.report(`${this.options.name} could not restart: ${String(error)}`);
          this.scheduleRestart();
        },
      );
    }, delay);
    this.restartTimer.unref();
  }

  /** A server of ours that outlived a killed share node holds the port: stop it. */
  private async stopLeftover(): Promise<void> {
    const pid = await readPid(this.options.pidFile);
    if (pid === null || !(await runsConfig(pid, this.options.configFile))) return;
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      return;
    }
    const deadline = Date.now() + STOP_WAIT_MS;
    while (Date.now() < deadline && (await runsConfig(pid, this.options.configFile))) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

/** Whether a live (not zombie) process runs with `configFile` on its command line. */
export async function runsConfig(pid: number, configFile: string): Promise<boolean> {
  try {
    const args = (await fs.readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0');
    const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && args.includes(configFile);
  } catch {
    return false;
  }
}
