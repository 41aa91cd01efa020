import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BackendConfig } from '#hawser/drivers';
import { ENTRY_POINTS, HawserProcess, freePort } from './test-support/hawser-process.js';
import { eventually } from './test-support/hawser-test-server.js';
import { manilaRequest } from './test-support/manila-http.js';
import { createPlacedShare } from './test-support/placed-share.js';
import { describeWithNats, NatsServer } from './test-support/nats-server.js';
import { simulatedPools } from './test-support/simulated-backends.js';

const KEPT = simulatedPools({ 'kept@sim': { p: 1000 } });
const BOTH = [...KEPT, ...simulatedPools({ 'removed@sim': { p: 1000 } })];

describeWithNats('A scheduler process after a share node dropped one of its back ends', () => {
  let dir: string;
  let nats: NatsServer;
  let api: HawserProcess;
  let scheduler: HawserProcess | undefined;
  let node: HawserProcess | undefined;
  let base: string;
  let schedulerUrl: string;
  let env: Record<string, string>;
  let schedulerPort: number;

  const call = (method: string, route: string, body?: unknown) =>
    manilaRequest(base, method, route, body);
  const schedulerReadiness = async () => {
    const response = await fetch(`${schedulerUrl}/health/ready`);
    return { status: response.status, body: (await response.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- terminus body
  };
  const startScheduler = async () => {
    scheduler = new HawserProcess(
      { ...env, HAWSER_METRICS_PORT: String(schedulerPort) },
      ENTRY_POINTS.scheduler,
    );
    await scheduler.start(90_000);
  };
  const startNode = async (backends: readonly BackendConfig[]) => {
    const file = path.join(dir, 'east.json');
    fs.writeFileSync(file, JSON.stringify(backends));
    node = new HawserProcess(
      { ...env, HAWSER_NODE_NAME: 'east', HAWSER_BACKENDS: file },
      ENTRY_POINTS.shareNode,
    );
    await node.start(90_000);
  };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-removed-backends-'));
    nats = await NatsServer.start();
    const apiPort = await freePort();
    schedulerPort = await freePort();
    base = `http://127.0.0.1:${apiPort}`;
    schedulerUrl = `http://127.0.0.1:${schedulerPort}`;
    // Reports every ten minutes: a scheduler that waited for the dropped back end (or for two
    // report intervals) would leave a new share without a host all through this test.
    env = {
      HAWSER_DATA_DIR: path.join(dir, 'data'),
      HAWSER_AUTH: 'noauth',
      NATS_URL: nats.url,
      HAWSER_REPORT_INTERVAL_S: '600',
    };
    api = new HawserProcess({ ...env, PORT: String(apiPort) }, ENTRY_POINTS.api);
    await api.start(90_000);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([node, scheduler, api].map((p) => p?.stop()));
    await nats?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('given a node that served two back ends, when it restarts with one, then the restarted scheduler waits for the node (not ready, naming both), then places on the kept one and shows the dropped one removed and down', async () => {
    await startScheduler();
    await startNode(BOTH);
    const type = await call('POST', '/v2/types', {
      share_type: { name: 'default', extra_specs: { driver_handles_share_servers: 'false' } },
    });
    expect(type.status).toBe(200);
    await eventually(
      async () => ((await schedulerReadiness()).status === 200 ? true : undefined),
      60_000,
      'the first scheduler to place',
    );
    await Promise.all([node?.stop(), scheduler?.stop()]);

    await startScheduler();
    const waiting = await eventually(
      async () => {
        const readiness = await schedulerReadiness();
        return readiness.body.details?.scheduler ? readiness : undefined;
      },
      60_000,
      'the scheduler to answer its readiness',
    );
    expect(waiting.status).toBe(503);
    expect(waiting.body.details.scheduler).toMatchObject({ placing: false });
    expect([...waiting.body.details.scheduler.waitingFor].sort()).toEqual([
      'kept@sim',
      'removed@sim',
    ]);

    await startNode(KEPT);
    const share = await createPlacedShare(call, 60_000);
    expect(share.host).toBe('kept@sim#p');

    const ready = await schedulerReadiness();
    expect(ready.status).toBe(200);
    expect(ready.body.details.scheduler).toMatchObject({
      placing: true,
      reportingBackends: ['kept@sim'],
    });
    const stream = await call('GET', '/hawser/v1/streams/backend-removed@sim');
    expect(stream.body.events.map((e: { type: string }) => e.type)).toEqual([
      'BackendRegistered',
      'BackendRemoved',
    ]);
    const services = (await call('GET', '/v2/services?binary=manila-share')).body.services;
    expect(services.map((s: { host: string; state: string }) => [s.host, s.state])).toEqual([
      ['kept@sim', 'up'],
      ['removed@sim', 'down'],
    ]);
  }, 400_000);
});
