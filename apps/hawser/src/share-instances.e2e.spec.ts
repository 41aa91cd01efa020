import {
  eventually,
  startHawser,
  type HawserTestServer,
} from './test-support/hawser-test-server.js';

const MEMBER = 'gina:12121212121212121212121212121212:member,reader';

describe('share instances over HTTP (given an available share)', () => {
  let hawser: HawserTestServer;
  let shareId: string;

  beforeAll(async () => {
    hawser = await startHawser();
    await hawser.request('POST', '/v2/types', {
      share_type: { name: 'default', extra_specs: { driver_handles_share_servers: 'false' } },
    });
    const created = await hawser.request(
      'POST',
      '/v2/shares',
      { share: { share_proto: 'NFS', size: 1, share_type: 'default' } },
      { token: MEMBER },
    );
    shareId = created.body.share.id;
    await eventually(async () => {
      const show = await hawser.request('GET', `/v2/shares/${shareId}`);
      return show.body.share.status === 'available' ? true : undefined;
    });
  });
  afterAll(() => hawser.close());

  it('lists, shows and lists per share the instance with Manila fields', async () => {
    const ofShare = await hawser.request('GET', `/v2/shares/${shareId}/instances`);
    expect(ofShare.status).toBe(200);
    const [instance] = ofShare.body.share_instances;
    expect(instance).toMatchObject({
      share_id: shareId,
      status: 'available',
      host: expect.stringMatching(/^sim@[ab][12]#(fast|slow)$/),
      availability_zone: expect.stringMatching(/^az-/),
      share_network_id: null,
      share_server_id: null,
      access_rules_status: 'active',
      replica_state: null,
      cast_rules_to_readonly: false,
      progress: '100%',
    });
    expect(instance).toHaveProperty('updated_at');
    expect(instance).not.toHaveProperty('export_locations');

    const shown = await hawser.request('GET', `/v2/share_instances/${instance.id}`);
    expect(shown.body.share_instance).toEqual(instance);
    const listed = await hawser.request('GET', '/v2/share_instances');
    expect(listed.body.share_instances).toContainEqual(instance);

    const old = await hawser.request('GET', `/v2/share_instances/${instance.id}`, undefined, {
      version: '2.8',
    });
    expect(old.body.share_instance.export_locations).toContain(
      old.body.share_instance.export_location,
    );
    expect(old.body.share_instance.export_location).toMatch(/^sim:\/shares\//);
    expect(old.body.share_instance).not.toHaveProperty('replica_state');
  });

  it('filters by export location path from 2.35', async () => {
    const locations = await hawser.request('GET', `/v2/shares/${shareId}/export_locations`);
    const path = encodeURIComponent(locations.body.export_locations[0].path);
    const found = await hawser.request('GET', `/v2/share_instances?export_location_path=${path}`);
    expect(found.body.share_instances.map((i: { share_id: string }) => i.share_id)).toEqual([
      shareId,
    ]);
    const none = await hawser.request('GET', '/v2/share_instances?export_location_path=nowhere');
    expect(none.body.share_instances).toEqual([]);
  });

  it('is admin-only, 404 for unknown ids and before 2.3', async () => {
    expect(
      (await hawser.request('GET', '/v2/share_instances', undefined, { token: MEMBER })).status,
    ).toBe(403);
    expect((await hawser.request('GET', '/v2/share_instances/nope')).status).toBe(404);
    expect((await hawser.request('GET', '/v2/shares/nope/instances')).status).toBe(404);
    expect(
      (await hawser.request('GET', '/v2/share_instances', undefined, { version: '2.2' })).status,
    ).toBe(404);
  });

  it('resets one instance status and force-deletes it, admin only, refusing bad input with 4xx', async () => {
    const [instance] = (await hawser.request('GET', `/v2/shares/${shareId}/instances`)).body
      .share_instances;
    const action = (body: unknown, token?: string, version?: string) =>
      hawser.request('POST', `/v2/share_instances/${instance.id}/action`, body, { token, version });

    for (const [body, token, status] of [
      [{ reset_status: { status: 'error' } }, MEMBER, 403],
      [{ reset_status: { status: 'nonsense' } }, undefined, 400],
      [{ reset_status: {} }, undefined, 400],
      [{ reset_status: {}, force_delete: null }, undefined, 400],
      [{ promote: null }, undefined, 400],
      [{ force_delete: null }, MEMBER, 403],
    ] as const) {
      expect((await action(body, token)).status).toBe(status);
    }
    expect((await action({ reset_status: { status: 'error' } }, undefined, '2.2')).status).toBe(
      404,
    );
    const unknown = await hawser.request(
      'POST',
      '/v2/share_instances/00000000-0000-4000-8000-000000000000/action',
      { reset_status: { status: 'error' } },
    );
    expect(unknown.status).toBe(404);
    const unchanged = await hawser.request('GET', `/v2/share_instances/${instance.id}`);
    expect(unchanged.body.share_instance.status).toBe('available');

    expect(
      (await action({ 'os-reset_status': { status: 'error' } }, undefined, '2.6')).status,
    ).toBe(202);
    const reset = await hawser.request('GET', `/v2/share_instances/${instance.id}`);
    expect(reset.body.share_instance.status).toBe('error');
    expect((await hawser.request('GET', `/v2/shares/${shareId}`)).body.share.status).toBe('error');

    expect((await action({ force_delete: null })).status).toBe(202);
    await eventually(
      async () =>
        (await hawser.request('GET', `/v2/shares/${shareId}`)).status === 404 ? true : undefined,
      5_000,
      'the force-deleted share to be gone',
    );
    expect((await hawser.request('GET', `/v2/share_instances/${instance.id}`)).status).toBe(404);
  });
});
