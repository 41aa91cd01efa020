import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ENTRY_POINTS, HawserProcess, freePort } from './test-support/hawser-process.js';
import { eventually } from './test-support/hawser-test-server.js';
import { manilaRequest } from './test-support/manila-http.js';
import { describeWithNats, NatsServer } from './test-support/nats-server.js';
import { metricValue } from './test-support/observability.js';
import { simulatedBackends } from './test-support/simulated-backends.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- health bodies, read loosely
type HealthBody = Record<string, any>;

describeWithNats('Health and metrics of the processes of the multi-process mode', () => {
  let dir: string;
  let nats: NatsServer;
  let api: HawserProcess;
  let scheduler: HawserProcess;
  let node: HawserProcess;
  let base: string;
  let schedulerUrl: string;
  let nodeUrl: string;

  const get = async (url: string) => {
    const response = await fetch(url);
    const text = await response.text();
    return { status: response.status, text, json: () => JSON.parse(text) as HealthBody };
  };
  /** The readiness body once ready and, when `until` is given, once it holds too. */
  const readyBody = (url: string, until: (body: HealthBody) => boolean = () => true) =>
    eventually(
      async () => {
        const r = await get(`${url}/health/ready`);
        const body = r.status === 200 ? r.json() : undefined;
        return body && until(body) ? body : undefined;
      },
      15_000,
      `${url} to be ready`,
    );

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-multi-observe-'));
    nats = await NatsServer.start();
    const [apiPort, schedulerPort, nodePort] = [
      await freePort(),
      await freePort(),
      await freePort(),
    ];
    base = `http://127.0.0.1:${apiPort}`;
    schedulerUrl = `http://127.0.0.1:${schedulerPort}`;
    nodeUrl = `http://127.0.0.1:${nodePort}`;
    const env = {
      HAWSER_DATA_DIR: path.join(dir, 'data'),
      HAWSER_AUTH: 'noauth',
      NATS_URL: nats.url,
      HAWSER_REPORT_INTERVAL_S: '1',
    };
    const backends = path.join(dir, 'backends.json');
    fs.writeFileSync(backends, JSON.stringify(simulatedBackends({}, 'east')));
    api = new HawserProcess({ ...env, PORT: String(apiPort) }, ENTRY_POINTS.api);
    scheduler = new HawserProcess(
      { ...env, HAWSER_METRICS_PORT: String(schedulerPort) },
      ENTRY_POINTS.scheduler,
    );
    node = new HawserProcess(
      {
        ...env,
        HAWSER_NODE_NAME: 'east',
        HAWSER_BACKENDS: backends,
        HAWSER_METRICS_PORT: String(nodePort),
      },
      ENTRY_POINTS.shareNode,
    );
    await api.start();
    await Promise.all([scheduler.start(), node.start()]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([node, scheduler, api].map((p) => p?.stop()));
    await nats?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('given the three processes, then each is ready for its own reasons, NATS connected in each', async () => {
    const apiReady = await readyBody(base);
    expect(apiReady.info).toMatchObject({
      nats: { status: 'up' },
      event_store: { status: 'up' },
      projections: { status: 'up' },
    });
    // The scheduler places once one back end has reported; the node's four report one by one.
    const schedulerReady = await readyBody(
      schedulerUrl,
      (body) => body.details?.scheduler?.reportingBackends?.length === 4,
    );
    expect(schedulerReady.details).toMatchObject({
      nats: { status: 'up' },
      scheduler: { status: 'up', placing: true },
    });
    expect(schedulerReady.details.scheduler.reportingBackends).toHaveLength(4);
    const nodeReady = await readyBody(nodeUrl);
    expect(nodeReady.details).toMatchObject({
      nats: { status: 'up' },
      'share_node:east': { status: 'up' },
    });
    expect((await get(`${nodeUrl}/health/live`)).status).toBe(200);
  });

  it('given a share created through the API, then the scheduler counts its decision and the node its driver call, each on its own port', async () => {
    const call = (method: string, route: string, body?: unknown) =>
      manilaRequest(base, method, route, body);
    expect(
      (
        await call('POST', '/v2/types', {
          share_type: { name: 'default', extra_specs: { driver_handles_share_servers: 'false' } },
        })
      ).status,
    ).toBe(200);
    const created = await call('POST', '/v2/shares', {
      share: { share_proto: 'NFS', size: 1, share_type: 'default' },
    });
    expect(created.status).toBe(200);
    await eventually(
      async () =>
        (await call('GET', `/v2/shares/${created.body.share.id}`)).body.share?.status ===
        'available'
          ? true
          : undefined,
      15_000,
      'the share to be available',
    );

    const decisions = metricValue(
      (await get(`${schedulerUrl}/metrics`)).text,
      'hawser_scheduler_decision_duration_seconds_count',
      { kind: 'share', outcome: 'placed' },
    );
    expect(decisions).toBe(1);
    const nodeMetrics = (await get(`${nodeUrl}/metrics`)).text;
    expect(
      metricValue(nodeMetrics, 'hawser_driver_operation_duration_seconds_count', {
        operation: 'create_share',
        outcome: 'ok',
      }),
    ).toBe(1);
    expect(
      metricValue(nodeMetrics, 'hawser_pool_capacity_gigabytes', {
        backend: 'east@a1',
        pool: 'fast',
        kind: 'total',
      }),
    ).toBe(1000);
  });
});
