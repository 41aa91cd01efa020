import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSimulatedHawser, type HawserProcess } from './test-support/hawser-process.js';
import { eventually } from './test-support/hawser-test-server.js';
import { ADMIN_TOKEN, manilaRequest } from './test-support/manila-http.js';
import { logLines, metricValue, type LogLine } from './test-support/observability.js';

const PROJECT = '11111111111111111111111111111111';

describe('Logs and metrics of a running service', () => {
  let dir: string;
  let service: HawserProcess;
  let base: string;
  const call = (method: string, route: string, body?: unknown, token = ADMIN_TOKEN) =>
    manilaRequest(base, method, route, body, { token });
  const lines = (): LogLine[] => logLines(service.output);
  const scrape = async (): Promise<string> => {
    const response = await call('GET', '/metrics');
    expect(response.status).toBe(200);
    return response.body as string;
  };
  const createShare = async (shareType: string) => {
    const created = await call('POST', '/v2/shares', {
      share: { share_proto: 'NFS', size: 1, share_type: shareType },
    });
    expect(created.status).toBe(200);
    return {
      id: created.body.share.id as string,
      requestId: created.headers.get('x-openstack-request-id') ?? '',
    };
  };
  const settled = (id: string) =>
    eventually(
      async () => {
        const share = await call('GET', `/v2/shares/${id}`);
        const status = share.body.share?.status as string | undefined;
        return status === 'available' || status === 'error' ? status : undefined;
      },
      15_000,
      `share ${id} to settle`,
    );

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-observability-'));
    ({ service, base } = await startSimulatedHawser(dir, { HAWSER_LOG_LEVEL: 'info' }));
    for (const [name, extraSpecs] of [
      ['default', {}],
      // No pool has this vendor: the scheduler finds no valid host.
      ['nowhere', { vendor_name: 'Nobody' }],
    ] as const) {
      const type = await call('POST', '/v2/types', {
        share_type: { name, extra_specs: { driver_handles_share_servers: 'false', ...extraSpecs } },
      });
      expect(type.status).toBe(200);
    }
  });

  afterAll(async () => {
    await service.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('given a share created, when its request id is followed, then it names the request line, every event of the share and the driver call', async () => {
    const share = await createShare('default');
    expect(await settled(share.id)).toBe('available');

    const request = lines().find((l) => l.context === 'http' && l.requestId === share.requestId);
    expect(request).toMatchObject({
      level: 'info',
      method: 'POST',
      route: '/v2/shares',
      status: 200,
      userId: 'admin',
      projectId: PROJECT,
      microversion: '2.72',
    });
    expect(typeof request?.durationMs).toBe('number');

    const events = await call('GET', `/hawser/v1/streams/share-${share.id}`);
    const recorded = events.body.events as { type: string; request_id: string }[];
    expect(recorded.map((e) => e.type)).toEqual([
      'ShareRequested',
      'ShareScheduled',
      'ShareDriverOperationStarted',
      'ShareCreated',
    ]);
    // The scheduler's and the share node's events carry the request id of the POST too.
    expect(recorded.map((e) => e.request_id)).toEqual(recorded.map(() => share.requestId));

    const driverCall = await eventually(
      async () =>
        lines().find(
          (l) =>
            l.context === 'driver' &&
            l.requestId === share.requestId &&
            l.operation === 'create_share',
        ),
      5_000,
      'the driver call line',
    );
    expect(driverCall).toMatchObject({ outcome: 'ok', stream: `share-${share.id}` });

    const steps = lines().filter((l) => l.processManager && l.requestId === share.requestId);
    expect(steps.map((l) => l.event)).toEqual(
      expect.arrayContaining(['ShareRequested', 'ShareScheduled']),
    );
    const nodeStep = steps.find((l) => l.event === 'ShareScheduled');
    expect(nodeStep).toMatchObject({
      outcome: 'handled',
      stream: `share-${share.id}`,
      driverOperations: [expect.stringMatching(/ create_share$/)],
    });
    expect(nodeStep?.commands).toEqual(
      expect.arrayContaining([`CompleteShareInstanceCreation share-${share.id}`]),
    );
  });

  it('given a share no pool can take, when it goes to error, then a warn line gives its reason and request id', async () => {
    const share = await createShare('nowhere');
    expect(await settled(share.id)).toBe('error');

    const warning = await eventually(
      async () =>
        lines().find(
          (l) =>
            l.level === 'warn' &&
            l.event === 'ShareSchedulingFailed' &&
            l.stream === `share-${share.id}`,
        ),
      5_000,
      'the warning',
    );
    expect(warning.requestId).toBe(share.requestId);
    expect(warning.reason).toContain('No valid host');
  });

  it('given requests and a share, when /metrics is scraped before and after, then the counters moved', async () => {
    const before = await scrape();
    const listing = { method: 'GET', route: '/v2/shares', status: '200' };
    await call('GET', '/v2/shares');
    await call('GET', '/v2/shares');
    const share = await createShare('default');
    await settled(share.id);
    const after = await scrape();

    const count = 'hawser_http_request_duration_seconds_count';
    expect(metricValue(after, count, listing) - metricValue(before, count, listing)).toBe(2);
    const appended = (text: string) =>
      metricValue(text, 'hawser_events_appended_total', { category: 'share' });
    expect(appended(after)).toBeGreaterThan(appended(before));
    const created = (text: string) =>
      metricValue(text, 'hawser_driver_operation_duration_seconds_count', {
        operation: 'create_share',
        outcome: 'ok',
      });
    expect(created(after) - created(before)).toBe(1);
    const placed = (text: string) =>
      metricValue(text, 'hawser_scheduler_decision_duration_seconds_count', {
        kind: 'share',
        outcome: 'placed',
      });
    expect(placed(after) - placed(before)).toBe(1);
    expect(metricValue(after, 'hawser_shares', { status: 'available' })).toBeGreaterThanOrEqual(1);
    expect(metricValue(after, 'hawser_shares', { status: 'error' })).toBeGreaterThanOrEqual(1);
    expect(
      metricValue(after, 'hawser_pool_capacity_gigabytes', {
        backend: 'sim@a1',
        pool: 'fast',
        kind: 'total',
      }),
    ).toBe(1000);
    expect(after).toMatch(/^hawser_log_follower_lag_seconds\{kind="projection",name="shares"\} /m);
    expect(after).toMatch(
      /^hawser_log_follower_lag_events\{kind="process_manager",name="share-scheduling"\} /m,
    );
  });

  it('given /metrics, when asked without a token or by a project member, then it is refused', async () => {
    expect((await call('GET', '/metrics', undefined, '')).status).toBe(401);
    expect((await call('GET', '/metrics', undefined, `alice:${PROJECT}:member`)).status).toBe(403);
  });

  it('given output to a pipe, then every line is plain JSON without colour codes', () => {
    expect(service.output).not.toContain('\u001b[');
    expect(lines().length).toBeGreaterThan(10);
  });
});
