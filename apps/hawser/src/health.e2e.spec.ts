import { ProjectionRunner } from '#hawser/read-models';
import {
  eventually,
  startHawser,
  type HawserTestServer,
} from './test-support/hawser-test-server.js';
import { metricValue } from './test-support/observability.js';

const shareType = (name: string) => ({
  share_type: { name, extra_specs: { driver_handles_share_servers: 'false' } },
});

describe('Readiness and liveness', () => {
  let hawser: HawserTestServer;
  const ready = () => hawser.request('GET', '/health/ready', undefined, { token: '' });

  beforeAll(async () => {
    // A projection more than a second behind makes the service not ready.
    process.env.HAWSER_READINESS_MAX_LAG_S = '1';
    hawser = await startHawser();
  });

  afterAll(async () => {
    delete process.env.HAWSER_READINESS_MAX_LAG_S;
    await hawser.close();
  });

  it('given a started service, then it is live and, once placing, ready in every part without a token', async () => {
    const live = await hawser.request('GET', '/health/live', undefined, { token: '' });
    expect(live).toMatchObject({ status: 200, body: { status: 'ok' } });

    const answer = await eventually(async () => {
      const r = await ready();
      return r.status === 200 ? r : undefined;
    });
    expect(Object.keys(answer.body.info).sort()).toEqual([
      'event_store',
      'projections',
      'scheduler',
      'share_node:embedded',
    ]);
    expect(answer.body.info.scheduler).toMatchObject({ status: 'up', placing: true });
    expect(answer.body.info.scheduler.reportingBackends).toHaveLength(4);
    const manila = await hawser.request('GET', '/healthcheck', undefined, { token: '' });
    expect(manila).toMatchObject({ status: 200, body: 'OK' });
  });

  it('given a projection stopped on purpose, when the log moves on, then its lag shows in /metrics and readiness fails naming it, until it runs again', async () => {
    const runner = hawser.app.get(ProjectionRunner);
    await runner.pause('shares');
    try {
      // Share-type events are no concern of the shares projection, but it must still pass them.
      expect((await hawser.request('POST', '/v2/types', shareType('while-paused'))).status).toBe(
        200,
      );

      const notReady = await eventually(
        async () => {
          const r = await ready();
          return r.status === 503 ? r : undefined;
        },
        10_000,
        'readiness to fail',
      );
      expect(notReady.body.error.projections.behind).toEqual([
        expect.objectContaining({ name: 'shares', events: 1 }),
      ]);
      expect(notReady.body.info.event_store.status).toBe('up');
      const manila = await hawser.request('GET', '/healthcheck', undefined, { token: '' });
      expect(manila).toMatchObject({ status: 503, body: 'NOT READY: projections' });

      const metrics = (await hawser.request('GET', '/metrics')).body as string;
      const shares = { kind: 'projection', name: 'shares' };
      expect(metricValue(metrics, 'hawser_log_follower_lag_events', shares)).toBe(1);
      expect(metricValue(metrics, 'hawser_log_follower_lag_seconds', shares)).toBeGreaterThan(1);
      const types = { kind: 'projection', name: 'share-types' };
      expect(metricValue(metrics, 'hawser_log_follower_lag_events', types)).toBe(0);
    } finally {
      runner.resume('shares');
    }

    const readyAgain = await eventually(async () => {
      const r = await ready();
      return r.status === 200 ? r : undefined;
    });
    expect(readyAgain.body.info.projections.status).toBe('up');
  });
});
