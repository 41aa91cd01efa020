import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');
/** The built driver: the child processes run the same code the share node does. */
export const BUILT_DRIVER = path.join(ROOT, 'dist/libs/drivers/src/local/local.driver.js');

/** What the child printed once its `initialize()` settled. */
export interface InitializeOutcome {
  readonly held: boolean;
  readonly pid: number;
  readonly code?: string;
  readonly message?: string;
}

// Initializes a local driver (after "go" on stdin when asked), prints the outcome as one JSON
// line, then holds the back end until stdin closes, when it closes the driver and exits.
const CHILD = `
const { LocalShareDriver } = await import(process.env.DRIVER_MODULE);
const driver = new LocalShareDriver({
  driver: 'local',
  name: process.env.BACKEND,
  availabilityZone: 'az-1',
  pools: [{ name: 'p1' }],
  options: { root: process.env.ROOT },
});
const lines = process.stdin.setEncoding('utf8');
if (process.env.WAIT_FOR_GO) await new Promise((resolve) => lines.once('data', resolve));
try {
  await driver.initialize();
  console.log(JSON.stringify({ held: true, pid: process.pid }));
} catch (error) {
  console.log(JSON.stringify({ held: false, pid: process.pid, code: error.code, message: error.message }));
  process.exit(0);
}
lines.on('end', async () => {
  await driver.close();
  process.exit(0);
});
lines.resume();
`;

/** A separate Node process driving one local back end. */
export class LockHolderProcess {
  readonly outcome: Promise<InitializeOutcome>;
  private readonly exited: Promise<void>;

  private constructor(private readonly child: ChildProcess) {
    let output = '';
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    this.outcome = new Promise((resolve, reject) => {
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const line = output.split('\n').find((candidate) => candidate.startsWith('{'));
        if (line) resolve(JSON.parse(line) as InitializeOutcome);
      });
      child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      void this.exited.then(() => reject(new Error(`exited without an outcome:\n${output}`)));
    });
  }

  /** Starts the child; with `waitForGo` it initializes only once `go()` is called. */
  static start(root: string, backend: string, options: { waitForGo?: boolean } = {}) {
    if (!fs.existsSync(BUILT_DRIVER)) {
      throw new Error(`${BUILT_DRIVER} is missing: run npm run build first`);
    }
    const child = spawn(process.execPath, ['--input-type=module', '-e', CHILD], {
      env: {
        ...process.env,
        DRIVER_MODULE: pathToFileURL(BUILT_DRIVER).href,
        ROOT: root,
        BACKEND: backend,
        ...(options.waitForGo ? { WAIT_FOR_GO: '1' } : {}),
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    return new LockHolderProcess(child);
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  go(): void {
    this.child.stdin?.write('go\n');
  }

  /** Closes the driver (releasing the back end) and waits for the exit. */
  async stop(): Promise<void> {
    this.child.stdin?.end();
    await this.exited;
  }

  /** Ends the process as a crash would: the driver never closes. */
  async kill(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill('SIGKILL');
    }
    await this.exited;
  }
}
