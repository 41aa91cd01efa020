import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HawserProcess, ROOT, freePort } from './test-support/hawser-process.js';
import { eventually } from './test-support/hawser-test-server.js';
import { manilaRequest } from './test-support/manila-http.js';

const TOKEN = 'admin:55555555555555555555555555555555';

/** `npm run hawser -- <args>` as an operator runs it, to its end. */
const npmRunHawser = (
  args: readonly string[],
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> =>
  new Promise((resolve) => {
    const npm = spawn('npm', ['run', '--silent', 'hawser', '--', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    npm.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    npm.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    npm.on('exit', (code) => resolve({ code, output }));
  });

describe('npm run hawser (the operator commands, as built for npm start)', () => {
  let dir: string;
  let env: Record<string, string>;
  let base: string;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-operator-cli-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    env = { PORT: String(port), HAWSER_DATA_DIR: path.join(dir, 'data'), HAWSER_AUTH: 'noauth' };
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('given --help, when it runs, then it lists its commands and the configuration', async () => {
    const { code, output } = await npmRunHawser(['--help'], env);

    expect(code).toBe(0);
    expect(output).toContain('rebuild-projection [options] <name>');
    expect(output).toContain('HAWSER_DATA_DIR');
  }, 120_000);

  it('given a projection name that does not exist, when a rebuild is asked, then it is refused in one line naming it and nothing runs', async () => {
    const { code, output } = await npmRunHawser(['rebuild-projection', 'no-such'], env);

    expect(code).toBe(2);
    expect(output).toContain('error: no projection named no-such');
    expect(output).not.toMatch(/^\s+at /m);
  }, 120_000);

  it('given a stopped service with a share, when the shares projection is rebuilt with no service answering, then it is rebuilt on the data directory and the share is listed after a restart', async () => {
    const service = new HawserProcess(env);
    await service.start(120_000);
    const type = await manilaRequest(
      base,
      'POST',
      '/v2/types',
      { share_type: { name: 'default', extra_specs: { driver_handles_share_servers: 'false' } } },
      { token: TOKEN },
    );
    expect(type.status).toBe(200);
    const created = await manilaRequest(
      base,
      'POST',
      '/v2/shares',
      { share: { share_proto: 'NFS', size: 1, name: 'kept', share_type: 'default' } },
      { token: TOKEN },
    );
    expect(created.status).toBe(200);
    await service.stop();

    const { code, output } = await npmRunHawser(['rebuild-projection', 'shares'], env);

    expect(output).toMatch(/^rebuilt shares in \d+ ms$/m);
    expect(code).toBe(0);
    const restarted = new HawserProcess(env);
    await restarted.start(120_000);
    try {
      const names = await eventually(
        async () => {
          const listed = await manilaRequest(base, 'GET', '/v2/shares', undefined, {
            token: TOKEN,
          });
          const shares = (listed.body as { shares: { name: string }[] }).shares;
          return shares.length > 0 ? shares.map((share) => share.name) : undefined;
        },
        30_000,
        'the share listed after the restart',
      );
      expect(names).toEqual(['kept']);
    } finally {
      await restarted.stop();
    }
  }, 300_000);
});
