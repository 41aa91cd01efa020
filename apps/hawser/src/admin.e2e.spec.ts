import { ALL_PROJECTIONS } from '#hawser/projections';
import { simulatedBackends } from './test-support/simulated-backends.js';
import {
  eventually,
  startHawser,
  type HawserTestServer,
} from './test-support/hawser-test-server.js';

const MEMBER = 'alice:55555555555555555555555555555555:member,reader';

describe('admin: audit trail, projections, parked events (slow drivers)', () => {
  let hawser: HawserTestServer;

  beforeAll(async () => {
    // Creations take 300 ms, so a request can overtake one.
    hawser = await startHawser({ backends: () => simulatedBackends({ latencyMs: 300 }) });
    await hawser.request('POST', '/v2/types', {
      share_type: { name: 'default', extra_specs: { driver_handles_share_servers: 'false' } },
    });
  });
  afterAll(() => hawser.close());

  it('records who did what, when and why: the share stream and the global log', async () => {
    const created = await hawser.request(
      'POST',
      '/v2/shares',
      { share: { share_proto: 'NFS', size: 1, share_type: 'default' } },
      { token: MEMBER },
    );
    const id = created.body.share.id as string;
    const requestId = created.headers.get('x-openstack-request-id');
    await eventually(async () => {
      const s = await hawser.request('GET', `/v2/shares/${id}`, undefined, { token: MEMBER });
      return s.body.share.status === 'available' ? s : undefined;
    });

    const stream = await hawser.request('GET', `/hawser/v1/streams/share-${id}`);
    expect(stream.status).toBe(200);
    const [requested, scheduled, started, done] = stream.body.events;
    expect(stream.body.events.map((e: { type: string }) => e.type)).toEqual([
      'ShareRequested',
      'ShareScheduled',
      'ShareDriverOperationStarted',
      'ShareCreated',
    ]);
    expect(requested).toMatchObject({
      user_id: 'alice',
      project_id: '55555555555555555555555555555555',
      request_id: requestId,
      correlation_id: requestId,
      schema_version: 1,
    });
    // Each step names the event that caused it.
    expect(scheduled.causation_id).toBe(requested.id);
    expect(scheduled.user_id).toBe('scheduler');
    expect(started.causation_id).toBe(scheduled.id);
    expect(done.causation_id).toBe(scheduled.id);

    const page = await hawser.request('GET', '/hawser/v1/events?limit=2&stream_prefix=share-');
    expect(page.body.events).toHaveLength(2);
    const next = await hawser.request(
      'GET',
      `/hawser/v1/events?limit=2&after=${page.body.next_after}`,
    );
    expect(next.body.events[0].position).toBeGreaterThan(page.body.events[1].position);
    expect(
      (await hawser.request('GET', '/hawser/v1/events', undefined, { token: MEMBER })).status,
    ).toBe(403);
    expect((await hawser.request('GET', '/hawser/v1/events?limit=0')).status).toBe(400);
  });

  it('finishes a force-delete that overtook the creation it interrupted', async () => {
    const created = await hawser.request('POST', '/v2/shares', {
      share: { share_proto: 'NFS', size: 1, share_type: 'default' },
    });
    const id = created.body.share.id as string;
    await eventually(async () => {
      const s = await hawser.request('GET', `/v2/shares/${id}`);
      return s.body.share.host ? s : undefined;
    });
    const forced = await hawser.request('POST', `/v2/shares/${id}/action`, { force_delete: null });
    expect(forced.status).toBe(202);
    await eventually(
      async () => {
        const s = await hawser.request('GET', `/v2/shares/${id}`);
        return s.status === 404 ? s : undefined;
      },
      10_000,
      'the share to be deleted',
    );
    const parked = await hawser.request('GET', '/hawser/v1/parked-events');
    expect(parked.body.parked_events).toEqual([]);
    expect((await hawser.request('POST', '/hawser/v1/parked-events/nope/retry')).status).toBe(404);
  });

  it('rebuilds a projection while serving, and the rebuilt listing equals the live one', async () => {
    const before = await hawser.request('GET', '/v2/shares/detail?all_tenants=1');
    const status = await hawser.request('GET', '/hawser/v1/projections');
    expect(status.body.projections.map((p: { name: string }) => p.name).sort()).toEqual(
      ALL_PROJECTIONS.map((p) => p.name).sort(),
    );
    const rebuilt = await hawser.request('POST', '/hawser/v1/projections/shares/rebuild');
    expect(rebuilt.status).toBe(200);
    expect(rebuilt.body.projection).toMatchObject({ name: 'shares', rebuilding: false });
    const after = await hawser.request('GET', '/v2/shares/detail?all_tenants=1');
    expect(after.body).toEqual(before.body);
    expect((await hawser.request('POST', '/hawser/v1/projections/nope/rebuild')).status).toBe(404);
  });
});
