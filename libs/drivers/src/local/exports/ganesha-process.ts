import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../json-file.js';
import { renderGaneshaServerConfig, type GaneshaServerSettings } from './ganesha-config.js';
import { readPid, sizeOf, waitForLog } from './ganesha-reload.js';

export interface ManagedGaneshaFiles {
  readonly configFile: string;
  readonly logFile: string;
  readonly pidFile: string;
}

export interface ManagedGaneshaOptions {
  readonly executable: string;
  readonly files: ManagedGaneshaFiles;
  readonly settings: GaneshaServerSettings;
  /** Writes the exports include file from the driver's state, before every (re)start. */
  readonly writeExports: () => Promise<void>;
  /** Told when the server dies, restarts or cannot start. */
  readonly report: (message: string) => void;
}

const STARTED = /NFS SERVER INITIALIZED/;
const START_WAIT_MS = 30_000;
const STOP_WAIT_MS = 5_000;
const FIRST_RESTART_DELAY_MS = 250;
const LAST_RESTART_DELAY_MS = 10_000;

/**
 * A ganesha.nfsd the share node runs in the foreground as its child: started with the exports
 * the driver's state gives, started again (exports rewritten first) whenever it dies, stopped
 * with the driver. One left running by a share node that was killed is stopped first.
 */
export class ManagedGanesha {
  private child: ChildProcess | null = null;
  private stopping = false;
  private restartTimer: NodeJS.Timeout | null = null;
  private restartDelayMs = FIRST_RESTART_DELAY_MS;

  constructor(private readonly options: ManagedGaneshaOptions) {}

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
    const { files, settings, executable } = this.options;
    await fs.mkdir(settings.recoveryDir, { recursive: true });
    await writeFileAtomic(files.configFile, renderGaneshaServerConfig(settings));
    await this.options.writeExports();
    const offset = await sizeOf(files.logFile);
    const child = spawn(
      executable,
      ['-F', '-f', files.configFile, '-L', files.logFile, '-p', files.pidFile, '-N', 'NIV_EVENT'],
      { stdio: 'ignore', cwd: path.dirname(files.configFile) },
    );
    this.child = child;
    const failed = new Promise<Error>((resolve) => {
      child.once('error', (error) => resolve(error));
      child.once('exit', (code, signal) =>
        resolve(new Error(`ganesha.nfsd exited (${signal ?? `code ${code}`}) while starting`)),
      );
    });

    const started = waitForLog(
      files.logFile,
      offset,
      STARTED,
      START_WAIT_MS,
      () => child.exitCode === null && child.signalCode === null,
    );
    const outcome = await Promise.race([started, failed]);
    if (outcome === null || outcome instanceof Error) {
      this.child = null;
      child.kill('SIGKILL');
      throw outcome ?? new Error(`ganesha.nfsd did not start; see ${files.logFile}`);
    }
    if (child.exitCode !== null || child.signalCode !== null) {
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
      `ganesha.nfsd exited (${signal ?? `code ${code}`}); restarting it with the current exports`,
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
          this.options.report('ganesha.nfsd is serving again');
        },
        (error: unknown) => {
          this.options.report(`ganesha.nfsd could not restart: ${String(error)}`);
          this.scheduleRestart();
        },
      );
    }, delay);
    this.restartTimer.unref();
  }

  /** A server of ours that outlived a killed share node holds the port: stop it. */
  private async stopLeftover(): Promise<void> {
    const pid = await readPid(this.options.files.pidFile);
    if (pid === null || !(await runsOurConfig(pid, this.options.files.configFile))) return;
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      return;
    }
    const deadline = Date.now() + STOP_WAIT_MS;
    while (Date.now() < deadline && (await runsOurConfig(pid, this.options.files.configFile))) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

async function runsOurConfig(pid: number, configFile: string): Promise<boolean> {
  try {
    const args = (await fs.readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0');
    const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && args.includes(configFile);
  } catch {
    return false;
  }
}
