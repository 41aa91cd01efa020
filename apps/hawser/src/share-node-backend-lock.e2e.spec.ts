import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LocalBackendConfig } from '#hawser/drivers';
import { ENTRY_POINTS, HawserProcess, freePort } from './test-support/hawser-process.js';
import { manilaRequest } from './test-support/manila-http.js';
import { describeWithNats, NatsServer } from './test-support/nats-server.js';

describeWithNats('share nodes configured with the same local back end', () => {
  let dir: string;
  let nats: NatsServer;
  let env: Record<string, string>;
  let base: string;
  let scheduler: HawserProcess;
  const processes: HawserProcess[] = [];

  const call = (method: string, route: string, body?: unknown) =>
    manilaRequest(base, method, route, body);

  const shareNode = (name: string, backends: LocalBackendConfig[]): HawserProcess => {
    const file = path.join(dir, `backends-${name}.json`);
    fs.writeFileSync(file, JSON.stringify(backends));
    const node = new HawserProcess(
      { ...env, HAWSER_NODE_NAME: name, HAWSER_BACKENDS: file },
      ENTRY_POINTS.shareNode,
    );
    processes.push(node);
    return node;
  };

  const backend = (name: string): LocalBackendConfig => ({
    name,
    driver: 'local',
    availabilityZone: 'az-1',
    pools: [{ name: 'pool1' }],
    options: { root: path.join(dir, 'pools') },
  });

  const lockFiles = (name: string): string[] =>
    fs.readdirSync(path.join(dir, 'pools', name, '.hawser', 'lock'));

  /** Creates a share on lock@alpha, once the scheduler knows its pool, and waits for it. */
  const availableShareOnAlpha = async (): Promise<{ id: string; host: string }> => {
    const reported = Date.now() + 10_000;
    while (!scheduler.output.includes('pools of lock@alpha ')) {
      if (Date.now() > reported) throw new Error(`no report of lock@alpha:\n${scheduler.output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const created = await call('POST', '/v2/shares', {
      share: { share_proto: 'NFS', size: 1, share_type: 'alpha' },
    });
    expect(created.status).toBe(200);
    const id = created.body.share.id as string;
    const deadline = Date.now() + 20_000;
    for (;;) {
      const share = (await call('GET', `/v2/shares/${id}`)).body.share;
      if (share.status === 'available') return { id, host: share.host as string };
      if (Date.now() > deadline) throw new Error(`share ${id} stayed ${share.status}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  beforeAll(async () => {
    for (const entry of [ENTRY_POINTS.api, ENTRY_POINTS.scheduler, ENTRY_POINTS.shareNode]) {
      if (!fs.existsSync(entry.main))
        throw new Error(`${entry.main} is missing: run npm run build first`);
    }
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-lock-'));
    nats = await NatsServer.start();
    env = {
      HAWSER_DATA_DIR: path.join(dir, 'data'),
      HAWSER_AUTH: 'noauth',
      NATS_URL: nats.url,
      HAWSER_REPORT_INTERVAL_S: '1',
    };
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    // The API first: it creates the SQLite files the others open.
    const api = new HawserProcess({ ...env, PORT: String(port) }, ENTRY_POINTS.api);
    scheduler = new HawserProcess(env, ENTRY_POINTS.scheduler);
    processes.push(api, scheduler);
    await api.start();
    await scheduler.start();
    const type = await call('POST', '/v2/types', {
      share_type: {
        name: 'alpha',
        extra_specs: { driver_handles_share_servers: 'false', share_backend_name: 'alpha' },
      },
    });
    expect(type.status).toBe(200);
  }, 60_000);

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await nats?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('given a node serving a back end, when a second node is started with it, then the second exits naming the holder; once the first is SIGKILLed it restarts on its back end and its shares', async () => {
    const first = shareNode('one', [backend('lock@alpha')]);
    await first.start();
    const before = await availableShareOnAlpha();

    const second = shareNode('two', [backend('lock@bravo'), backend('lock@alpha')]);
    const refused = await second.start().then(
      () => undefined,
      (error: Error) => error.message,
    );

    expect(refused).toContain('exited (1) before listening');
    expect(refused).toMatch(
      /Hawser share node cannot start: share node two: Back end lock@alpha is already driven by process \d+ on host /,
    );
    expect(refused).toContain('two share nodes must not serve the same back end');
    // The back end the refused node had locked first was let go.
    const bravoLock = path.join(dir, 'pools', 'lock@bravo', '.hawser', 'lock', 'held-1.json');
    expect(JSON.parse(fs.readFileSync(bravoLock, 'utf8'))).toMatchObject({ released: true });

    await first.kill();
    expect(lockFiles('lock@alpha')).toEqual(['held-1.json']);
    const restarted = shareNode('one', [backend('lock@alpha')]);
    await restarted.start();
    const after = await availableShareOnAlpha();

    expect(lockFiles('lock@alpha')).toEqual(['held-2.json']);
    expect([before.host, after.host]).toEqual(['lock@alpha#pool1', 'lock@alpha#pool1']);
    for (const { id } of [before, after]) {
      const locations = (await call('GET', `/v2/shares/${id}/export_locations`)).body
        .export_locations as { path: string; is_admin_only: boolean }[];
      const data = locations.find((location) => location.is_admin_only)?.path ?? '';
      expect(data.startsWith(path.join(dir, 'pools', 'lock@alpha', 'pool1', 'shares'))).toBe(true);
      expect(fs.statSync(data).isDirectory()).toBe(true);
    }
  }, 60_000);
});
