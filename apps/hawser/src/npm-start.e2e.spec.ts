import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ROOT, freePort } from './test-support/hawser-process.js';
import { eventually } from './test-support/hawser-test-server.js';

/** What `tsc -b` and the bundler write on a build; an up-to-date tree leaves them as they are. */
const BUILD_OUTPUTS = [
  'dist/tsconfig.build.tsbuildinfo',
  'dist/apps/hawser/src/main.js',
  'dist/libs/platform/src/index.js',
  'dist/bundle/hawser.js',
].map((file) => path.join(ROOT, file));

const modificationTimes = () => BUILD_OUTPUTS.map((file) => fs.statSync(file).mtimeMs);

const refusesConnections = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });

/** True once no process of the group is left, the npm process and the service alike. */
const groupIsGone = (groupId: number): boolean => {
  try {
    process.kill(-groupId, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
};

describe('npm start (the tree is built by the test run, so unchanged)', () => {
  let dir: string;
  let port: number;
  let npm: ChildProcess;
  let output: string;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-npm-start-'));
    port = await freePort();
    output = '';
  });
  afterEach(() => {
    if (npm.pid && !groupIsGone(npm.pid)) process.kill(-npm.pid, 'SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** `npm start` in its own process group, as a terminal would run it; resolves when it answers. */
  const startService = async (): Promise<void> => {
    npm = spawn('npm', ['start'], {
      cwd: ROOT,
      env: { ...process.env, PORT: String(port), HAWSER_DATA_DIR: path.join(dir, 'data') },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    npm.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    npm.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await eventually(
      async () => (output.includes('Hawser listening') ? true : undefined),
      180_000,
      `Hawser listening in:\n${output}`,
      100,
    );
  };

  const npmExit = (): Promise<number | null> =>
    npm.exitCode !== null
      ? Promise.resolve(npm.exitCode)
      : new Promise((resolve) => npm.once('exit', (code) => resolve(code)));

  it('given an unchanged tree, when npm start runs, then nothing is compiled again', async () => {
    const before = modificationTimes();

    await startService();

    expect(modificationTimes()).toEqual(before);
    npm.kill('SIGTERM');
    await npmExit();
  }, 240_000);

  it('given the service started by npm start, when SIGTERM reaches the npm process alone, then the service stops cleanly and nothing is left listening', async () => {
    await startService();

    npm.kill('SIGTERM');
    await npmExit();

    expect(output).toContain('Hawser stopping (SIGTERM)');
    expect(await refusesConnections(port)).toBe(true);
    await eventually(
      async () => (groupIsGone(npm.pid as number) ? true : undefined),
      30_000,
      'no process left',
    );
  }, 240_000);

  it('given the service started by npm start, when Ctrl-C signals the whole process group, then it stops once, cleanly, and nothing is left', async () => {
    await startService();

    process.kill(-(npm.pid as number), 'SIGINT');
    await npmExit();

    expect(output.match(/Hawser stopping/g)).toEqual(['Hawser stopping']);
    expect(output).toContain('Hawser stopping (SIGINT)');
    expect(await refusesConnections(port)).toBe(true);
    await eventually(
      async () => (groupIsGone(npm.pid as number) ? true : undefined),
      30_000,
      'no process left',
    );
  }, 240_000);
});
