import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort } from './hawser-process.js';

/** Debian's package installs the server in /usr/sbin, which is not on every user's PATH. */
const SEARCHED = [
  ...(process.env.PATH ?? '').split(path.delimiter),
  '/usr/sbin',
  '/usr/local/sbin',
];

/** The nats-server binary, or undefined when it is not installed (`apt-get install nats-server`). */
export const findNatsServer = (): string | undefined =>
  SEARCHED.filter(Boolean)
    .map((dir) => path.join(dir, 'nats-server'))
    .find((file) => {
      try {
        fs.accessSync(file, fs.constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });

/**
 * `describe` when nats-server is installed; otherwise the suite is skipped and its title says
 * why, so a machine without it never counts the suite as passed.
 */
export const describeWithNats = (title: string, body: () => void): void => {
  if (findNatsServer()) describe(title, body);
  else
    describe.skip(
      `${title} (skipped: nats-server is not installed; apt-get install nats-server)`,
      body,
    );
};

/** A real nats-server on a free loopback port, for tests. */
export class NatsServer {
  private output = '';

  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
    readonly port: number,
  ) {}

  /** Starts on a free port, or on `port` (a restart where clients expect it). */
  static async start(port?: number, timeoutMs = 10_000): Promise<NatsServer> {
    const binary = findNatsServer();
    if (binary === undefined) throw new Error('nats-server is not installed');
    port ??= await freePort();
    const child = spawn(binary, ['--addr', '127.0.0.1', '--port', String(port)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const server = new NatsServer(child, `nats://127.0.0.1:${port}`, port);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`nats-server not ready within ${timeoutMs} ms:\n${server.output}`)),
        timeoutMs,
      );
      const onData = (chunk: Buffer) => {
        server.output += chunk.toString();
        if (server.output.includes('Server is ready')) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`nats-server exited (${code ?? signal}):\n${server.output}`));
      });
    });
    return server;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.kill('SIGTERM');
    });
  }
}
