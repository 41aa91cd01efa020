import {
  eventually,
  startHawser,
  type HawserTestServer,
} from './test-support/hawser-test-server.js';

const PROJECT = '5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a';
const MEMBER = `hana:${PROJECT}:member,reader`;

/**
 * The views as the API serves them: export locations, zones and quota sets per microversion
 * and caller, and the `*_links` of the message and share-instance listings.
 */
describe('view field sets and listing links over HTTP', () => {
  let hawser: HawserTestServer;
  const available: string[] = [];

  const createShare = async (size: number) => {
    const created = await hawser.request(
      'POST',
      '/v2/shares',
      { share: { share_proto: 'NFS', size, share_type: 'default' } },
      { token: MEMBER },
    );
    expect(created.status).toBe(200);
    return created.body.share.id as string;
  };

  beforeAll(async () => {
    hawser = await startHawser();
    await hawser.request('POST', '/v2/types', {
      share_type: { name: 'default', extra_specs: { driver_handles_share_servers: 'false' } },
    });
    await hawser.request('PUT', `/v2/quota-sets/${PROJECT}`, { quota_set: { gigabytes: -1 } });
    for (let i = 0; i < 2; i += 1) available.push(await createShare(1));
    // Too big for any pool: each leaves a user message.
    for (let i = 0; i < 3; i += 1) await createShare(5000);
    await eventually(async () => {
      const shown = await Promise.all(
        available.map((id) =>
          hawser.request('GET', `/v2/shares/${id}`, undefined, { token: MEMBER }),
        ),
      );
      return shown.every((s) => s.body.share.status === 'available') ? true : undefined;
    });
    await eventually(async () => {
      const listed = await hawser.request('GET', '/v2/messages', undefined, { token: MEMBER });
      return listed.body.messages?.length === 3 ? true : undefined;
    });
  });
  afterAll(() => hawser.close());

  it('export locations: preferred from 2.14, the instance and admin-only flag for admins', async () => {
    const url = `/v2/shares/${available[0]}/export_locations`;
    const keys = async (version: string, token?: string) => {
      const listed = await hawser.request('GET', url, undefined, { version, token });
      expect(listed.status).toBe(200);
      expect(listed.body.export_locations.length).toBeGreaterThan(0);
      return Object.keys(listed.body.export_locations[0]).sort();
    };
    expect(await keys('2.13', MEMBER)).toEqual(['id', 'path']);
    expect(await keys('2.14', MEMBER)).toEqual(['id', 'path', 'preferred']);
    expect(await keys('2.14')).toEqual([
      'id',
      'is_admin_only',
      'path',
      'preferred',
      'share_instance_id',
    ]);
  });

  it('export location show: the detail, 404 for another id, instance locations for admins', async () => {
    const listed = await hawser.request('GET', `/v2/shares/${available[0]}/export_locations`);
    const [first] = listed.body.export_locations;
    const shown = await hawser.request(
      'GET',
      `/v2/shares/${available[0]}/export_locations/${first.id}`,
      undefined,
      { token: MEMBER },
    );
    expect(shown.status).toBe(200);
    expect(Object.keys(shown.body.export_location).sort()).toEqual([
      'created_at',
      'id',
      'path',
      'preferred',
      'updated_at',
    ]);
    expect(shown.body.export_location).toMatchObject({ id: first.id, path: first.path });
    // Manila's datetimes: six microsecond digits, no trailing Z.
    const manilaTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/;
    expect(shown.body.export_location.created_at).toMatch(manilaTime);
    expect(shown.body.export_location.updated_at).toMatch(manilaTime);
    const elsewhere = await hawser.request(
      'GET',
      `/v2/shares/${available[1]}/export_locations/${first.id}`,
      undefined,
      { token: MEMBER },
    );
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.itemNotFound.message).toBe(`Export location '${first.id}' not found.`);
    const early = await hawser.request(
      'GET',
      `/v2/shares/${available[0]}/export_locations/${first.id}`,
      undefined,
      { version: '2.8' },
    );
    expect(early.status).toBe(404);

    const ofInstance = await hawser.request(
      'GET',
      `/v2/share_instances/${first.share_instance_id}/export_locations`,
    );
    expect(ofInstance.body.export_locations).toEqual(listed.body.export_locations);
    const oneOfInstance = await hawser.request(
      'GET',
      `/v2/share_instances/${first.share_instance_id}/export_locations/${first.id}`,
    );
    expect(oneOfInstance.body.export_location).toMatchObject(first);
    expect(oneOfInstance.body.export_location.created_at).toMatch(manilaTime);
    const asMember = await hawser.request(
      'GET',
      `/v2/share_instances/${first.share_instance_id}/export_locations`,
      undefined,
      { token: MEMBER },
    );
    expect(asMember.status).toBe(403);
  });

  it("another project's private share: its locations are refused (403) as Manila's share:get", async () => {
    const listed = await hawser.request('GET', `/v2/shares/${available[0]}/export_locations`);
    const [first] = listed.body.export_locations;
    const stranger = `otto:${'6b'.repeat(16)}:member,reader`;
    const shown = await hawser.request('GET', `/v2/shares/${available[0]}`, undefined, {
      token: stranger,
    });
    expect(shown.status).toBe(404);
    for (const url of [
      `/v2/shares/${available[0]}/export_locations`,
      `/v2/shares/${available[0]}/export_locations/${first.id}`,
    ]) {
      const refused = await hawser.request('GET', url, undefined, { token: stranger });
      expect(refused.status).toBe(403);
      expect(refused.body.forbidden.message).toBe(
        "Policy doesn't allow share:get to be performed.",
      );
    }
  });

  it('share detail and access rules: the key sets at the boundary microversions', async () => {
    const shareKeys = async (version: string) =>
      Object.keys(
        (await hawser.request('GET', `/v2/shares/${available[0]}`, undefined, { version })).body
          .share,
      );
    expect(await shareKeys('2.8')).toEqual(
      expect.arrayContaining(['export_location', 'export_locations']),
    );
    expect(await shareKeys('2.9')).not.toContain('export_locations');
    expect(await shareKeys('2.53')).not.toContain('progress');
    expect(await shareKeys('2.54')).toContain('progress');

    const allowed = await hawser.request(
      'POST',
      `/v2/shares/${available[0]}/action`,
      { allow_access: { access_type: 'ip', access_to: '10.1.0.0/24' } },
      { token: MEMBER, version: '2.20' },
    );
    expect(allowed.status).toBe(200);
    expect(Object.keys(allowed.body.access).sort()).toEqual(
      ['access_level', 'access_to', 'access_type', 'id', 'share_id', 'state'].sort(),
    );
    const listed = async (version: string) => {
      const answer = await hawser.request(
        'POST',
        `/v2/shares/${available[0]}/action`,
        { access_list: null },
        { token: MEMBER, version },
      );
      expect(answer.status).toBe(200);
      return Object.keys(answer.body.access_list[0]).sort();
    };
    const base = ['access_level', 'access_to', 'access_type', 'id', 'state'];
    expect(await listed('2.20')).toEqual(base);
    expect(await listed('2.32')).toEqual([...base, 'access_key'].sort());
    expect(await listed('2.44')).toEqual(
      [...base, 'access_key', 'created_at', 'updated_at'].sort(),
    );
    const rules = await hawser.request(
      'GET',
      `/v2/share-access-rules?share_id=${available[0]}`,
      undefined,
      { token: MEMBER, version: '2.45' },
    );
    expect(Object.keys(rules.body.access_list[0]).sort()).toEqual(
      [...base, 'access_key', 'created_at', 'updated_at', 'metadata'].sort(),
    );
    const one = await hawser.request(
      'GET',
      `/v2/share-access-rules/${allowed.body.access.id}`,
      undefined,
      { token: MEMBER, version: '2.45' },
    );
    expect(Object.keys(one.body.access).sort()).toEqual(
      [...base, 'access_key', 'created_at', 'updated_at', 'metadata', 'share_id'].sort(),
    );
  });

  it('availability zones: {id, name, created_at, updated_at} under both paths', async () => {
    const zones = await hawser.request('GET', '/v2/availability-zones', undefined, {
      token: MEMBER,
    });
    expect(Object.keys(zones.body.availability_zones[0]).sort()).toEqual([
      'created_at',
      'id',
      'name',
      'updated_at',
    ]);
    const legacy = await hawser.request('GET', '/v2/os-availability-zone', undefined, {
      token: MEMBER,
      version: '2.6',
    });
    expect(legacy.body).toEqual(zones.body);
  });

  it("quota sets: a share type's has no share_networks nor share-group keys", async () => {
    const project = await hawser.request('GET', `/v2/quota-sets/${PROJECT}`, undefined, {
      token: MEMBER,
    });
    expect(project.body.quota_set).toHaveProperty('share_networks');
    expect(project.body.quota_set).toHaveProperty('share_groups');
    const ofType = await hawser.request(
      'GET',
      `/v2/quota-sets/${PROJECT}?share_type=default`,
      undefined,
      { token: MEMBER },
    );
    expect(Object.keys(ofType.body.quota_set).sort()).toEqual([
      'gigabytes',
      'id',
      'per_share_gigabytes',
      'replica_gigabytes',
      'share_replicas',
      'shares',
      'snapshot_gigabytes',
      'snapshots',
    ]);
    const detail = await hawser.request(
      'GET',
      `/v2/quota-sets/${PROJECT}/detail?share_type=default`,
      undefined,
      { token: MEMBER },
    );
    expect(detail.body.quota_set).not.toHaveProperty('share_networks');
  });

  it('messages: messages_links points at the next page while more follow', async () => {
    const first = await hawser.request('GET', `/v2/${PROJECT}/messages?limit=2`, undefined, {
      token: MEMBER,
    });
    expect(first.body.messages).toHaveLength(2);
    const [next] = first.body.messages_links;
    expect(next.rel).toBe('next');
    const href = new URL(next.href);
    expect(href.pathname).toBe(`/v2/${PROJECT}/messages`);
    expect(Object.fromEntries(href.searchParams)).toEqual({ limit: '2', offset: '2' });

    const second = await hawser.request('GET', `${href.pathname}${href.search}`, undefined, {
      token: MEMBER,
    });
    expect(second.body.messages).toHaveLength(1);
    expect(second.body).not.toHaveProperty('messages_links');
    const ids = [...first.body.messages, ...second.body.messages].map((m) => m.id);
    expect(new Set(ids).size).toBe(3);

    const all = await hawser.request('GET', '/v2/messages?limit=3', undefined, { token: MEMBER });
    expect(all.body).not.toHaveProperty('messages_links');
  });

  it('share instances: share_instances_links on both listings while more follow', async () => {
    const first = await hawser.request('GET', '/v2/share_instances?limit=1');
    expect(first.body.share_instances).toHaveLength(1);
    const href = new URL(first.body.share_instances_links[0].href);
    expect(href.pathname).toBe('/v2/share_instances');
    expect(Object.fromEntries(href.searchParams)).toEqual({ limit: '1', offset: '1' });
    const everything = await hawser.request('GET', '/v2/share_instances');
    expect(everything.body).not.toHaveProperty('share_instances_links');
    const second = await hawser.request('GET', `${href.pathname}${href.search}`);
    expect(second.body.share_instances[0]).toEqual(everything.body.share_instances[1]);

    const ofShare = await hawser.request('GET', `/v2/shares/${available[0]}/instances?limit=1`);
    expect(ofShare.body.share_instances).toHaveLength(1);
    expect(ofShare.body).not.toHaveProperty('share_instances_links');
  });

  it('listings answer a bad limit or offset with a Manila 400, each in its own words', async () => {
    // Shares read both as _validate_pagination_query does; messages and snapshots as
    // get_pagination_params does, the offset by oslo's validate_integer.
    const refusals: [url: string, message: string][] = [
      ['/v2/share_instances?limit=x', 'limit param must be an integer'],
      ['/v2/messages?offset=-1', 'offset must be >= 0'],
      ['/v2/messages?offset=x', 'offset must be an integer'],
      ['/v2/snapshots?limit=-1', 'limit param must be positive'],
      ['/v2/shares?offset=-1', 'offset param must be positive'],
      ['/v2/shares/detail?limit=-5&offset=-1', 'limit param must be positive'],
    ];
    for (const [url, message] of refusals) {
      const bad = await hawser.request('GET', url);
      expect({ url, status: bad.status, body: bad.body }).toEqual({
        url,
        status: 400,
        body: { badRequest: { code: 400, message } },
      });
    }
    expect((await hawser.request('GET', '/v2/shares?limit=%201&offset=+0')).status).toBe(200);
  });
});
