import {
  ADMIN_TOKEN,
  eventually,
  startHawser,
  type HawserTestServer,
} from './test-support/hawser-test-server.js';

const MEMBER = 'alice:22222222222222222222222222222222:member,reader';
const OTHER = 'bob:33333333333333333333333333333333:member,reader';

describe('shares over HTTP (given a share type, when a share is requested)', () => {
  let hawser: HawserTestServer;

  beforeAll(async () => {
    hawser = await startHawser();
    const created = await hawser.request('POST', '/v2/types', {
      share_type: { name: 'default', extra_specs: { driver_handles_share_servers: 'false' } },
    });
    expect(created.status).toBe(200);
  });
  afterAll(() => hawser.close());

  const waitForStatus = (id: string, status: string, token = MEMBER) =>
    eventually(
      async () => {
        const show = await hawser.request('GET', `/v2/shares/${id}`, undefined, { token });
        return show.body.share?.status === status ? show.body.share : undefined;
      },
      5_000,
      `share ${id} to be ${status}`,
    );

  it('creates, lists, shows and deletes a share, with Manila field names and statuses', async () => {
    const created = await hawser.request(
      'POST',
      '/v2/shares',
      {
        share: {
          share_proto: 'nfs',
          size: 1,
          name: 'first',
          share_type: 'default',
          metadata: { team: 'x' },
        },
      },
      { token: MEMBER },
    );
    expect(created.status).toBe(200);
    expect(created.headers.get('x-openstack-request-id')).toMatch(/^req-/);
    expect(created.headers.get('x-compute-request-id')).toBe(
      created.headers.get('x-openstack-request-id'),
    );
    const share = created.body.share;
    expect(share).toMatchObject({
      name: 'first',
      size: 1,
      share_proto: 'NFS',
      status: 'creating',
      project_id: '22222222222222222222222222222222',
      user_id: 'alice',
      share_type_name: 'default',
      metadata: { team: 'x' },
      is_public: false,
      progress: null,
    });
    expect(share).not.toHaveProperty('host');

    const available = await waitForStatus(share.id, 'available');
    expect(available.progress).toBe('100%');
    expect(available.availability_zone).toMatch(/^az-/);

    const locations = await hawser.request(
      'GET',
      `/v2/shares/${share.id}/export_locations`,
      undefined,
      {
        token: MEMBER,
      },
    );
    expect(locations.status).toBe(200);
    expect(locations.body.export_locations.length).toBeGreaterThan(0);
    expect(locations.body.export_locations[0].path).toEqual(expect.any(String));

    const list = await hawser.request('GET', '/v2/shares', undefined, { token: MEMBER });
    expect(list.body.shares).toEqual([{ id: share.id, name: 'first', links: expect.any(Array) }]);
    const detail = await hawser.request('GET', '/v2/shares/detail?name=first', undefined, {
      token: MEMBER,
    });
    expect(detail.body.shares.map((s: { id: string }) => s.id)).toEqual([share.id]);

    const asAdmin = await hawser.request('GET', `/v2/shares/${share.id}`, undefined, {
      token: ADMIN_TOKEN,
    });
    expect(asAdmin.body.share.host).toMatch(/^sim@[ab][12]#(fast|slow)$/);

    const deleted = await hawser.request('DELETE', `/v2/shares/${share.id}`, undefined, {
      token: MEMBER,
    });
    expect(deleted.status).toBe(202);
    await eventually(
      async () => {
        const show = await hawser.request('GET', `/v2/shares/${share.id}`, undefined, {
          token: MEMBER,
        });
        return show.status === 404 ? show : undefined;
      },
      5_000,
      'the share to be gone',
    );
    const after = await hawser.request('GET', '/v2/shares', undefined, { token: MEMBER });
    expect(after.body.shares).toEqual([]);
  });

  it('keeps projects apart: another project sees a 404 and an empty list', async () => {
    const created = await hawser.request(
      'POST',
      '/v2/shares',
      { share: { share_proto: 'NFS', size: 1, share_type: 'default' } },
      { token: MEMBER },
    );
    const id = created.body.share.id;
    expect(
      (await hawser.request('GET', `/v2/shares/${id}`, undefined, { token: OTHER })).status,
    ).toBe(404);
    expect(
      (await hawser.request('DELETE', `/v2/shares/${id}`, undefined, { token: OTHER })).status,
    ).toBe(404);
    expect(
      (await hawser.request('GET', '/v2/shares', undefined, { token: OTHER })).body.shares,
    ).toEqual([]);
    const all = await hawser.request('GET', '/v2/shares?all_tenants=1', undefined, {
      token: ADMIN_TOKEN,
    });
    expect(all.body.shares.map((s: { id: string }) => s.id)).toContain(id);
  });

  it('answers bad input with Manila faults and writes nothing', async () => {
    const before = await hawser.request('GET', '/hawser/v1/events?limit=1000');
    const cases: Array<[unknown, number]> = [
      [{}, 422],
      [{ share: { share_proto: 'NFS', size: 0, share_type: 'default' } }, 400],
      [{ share: { share_proto: 'NFS', size: 'big', share_type: 'default' } }, 400],
      [{ share: { share_proto: 'NFS', size: 1, share_type: 'missing' } }, 404],
      [
        {
          share: {
            share_proto: 'NFS',
            size: 1,
            share_type: 'default',
            availability_zone: 'nowhere',
          },
        },
        404,
      ],
      [{ share: { share_proto: 'XFS', size: 1, share_type: 'default' } }, 400],
      [{ share: { share_proto: 'NFS', size: 1, share_type: 'default', metadata: { k: 1 } } }, 400],
      [{ share: { share_proto: 'NFS', size: 1, share_type: 'default', is_public: true } }, 403],
    ];
    for (const [body, status] of cases) {
      const response = await hawser.request('POST', '/v2/shares', body, { token: MEMBER });
      expect({ body, status: response.status }).toEqual({ body, status });
      const fault = Object.values(response.body as object)[0] as { code: number; message: string };
      expect(fault.code).toBe(status);
      expect(fault.message).toEqual(expect.any(String));
    }
    const malformed = await hawser.request('POST', '/v2/shares', undefined, {
      token: MEMBER,
      raw: '{"share":',
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({
      badRequest: { code: 400, message: 'Malformed request body' },
    });
    const after = await hawser.request('GET', '/hawser/v1/events?limit=1000');
    expect(after.body.events.length).toBe(before.body.events.length);
  });

  it('answers concurrent changes of one share with 200 or 409, writing one event per success', async () => {
    const created = await hawser.request(
      'POST',
      '/v2/shares',
      { share: { share_proto: 'NFS', size: 1, share_type: 'default' } },
      { token: MEMBER },
    );
    const id = created.body.share.id as string;
    const renames = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        hawser.request(
          'PUT',
          `/v2/shares/${id}`,
          { share: { display_name: `n${i}` } },
          { token: MEMBER },
        ),
      ),
    );
    const statuses = renames.map((r) => r.status);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    for (const conflict of renames.filter((r) => r.status === 409)) {
      expect(conflict.body.conflictingRequest.code).toBe(409);
    }
    const stream = await hawser.request('GET', `/hawser/v1/streams/share-${id}`);
    const updates = stream.body.events.filter((e: { type: string }) => e.type === 'ShareUpdated');
    expect(updates).toHaveLength(statuses.filter((s) => s === 200).length);
  });

  it('filters by export location and refuses sort keys that are not columns', async () => {
    const created = await hawser.request(
      'POST',
      '/v2/shares',
      { share: { share_proto: 'NFS', size: 1, share_type: 'default', name: 'located' } },
      { token: MEMBER },
    );
    const id = created.body.share.id as string;
    await waitForStatus(id, 'available');
    const [location] = (
      await hawser.request('GET', `/v2/shares/${id}/export_locations`, undefined, { token: MEMBER })
    ).body.export_locations;
    const byPath = await hawser.request(
      'GET',
      `/v2/shares?export_location_path=${encodeURIComponent(location.path)}`,
      undefined,
      { token: MEMBER },
    );
    expect(byPath.body.shares.map((s: { id: string }) => s.id)).toEqual([id]);
    const byId = await hawser.request(
      'GET',
      `/v2/shares?export_location_id=${location.id}`,
      undefined,
      {
        token: MEMBER,
      },
    );
    expect(byId.body.shares.map((s: { id: string }) => s.id)).toEqual([id]);
    const none = await hawser.request('GET', '/v2/shares?export_location_path=nowhere', undefined, {
      token: MEMBER,
    });
    expect(none.body.shares).toEqual([]);
    for (const key of ['__proto__', 'constructor', 'toString']) {
      const sorted = await hawser.request('GET', `/v2/shares?sort_key=${key}`, undefined, {
        token: MEMBER,
      });
      expect(sorted.status).toBe(400);
    }
  });

  it('negotiates microversions as Manila does', async () => {
    const bad = await hawser.request('GET', '/v2/shares', undefined, { version: 'latest' });
    expect(bad.status).toBe(400);
    const tooNew = await hawser.request('GET', '/v2/shares', undefined, { version: '2.99' });
    expect(tooNew.status).toBe(406);
    expect(tooNew.body.computeFault.code).toBe(406);
    const ok = await hawser.request('GET', '/v2/shares', undefined, { version: '2.60' });
    expect(ok.headers.get('x-openstack-manila-api-version')).toBe('2.60');
    const unauthenticated = await hawser.request('GET', '/v2/shares', undefined, { token: '' });
    expect(unauthenticated.status).toBe(401);
    const root = await hawser.request('GET', '/', undefined, { token: '' });
    expect(root.status).toBe(300);
    expect(root.body.versions.map((v: { id: string }) => v.id)).toEqual(['v2.0']);
  });

  it('serves URLs with the project id, and refuses another project in the URL', async () => {
    const project = '22222222222222222222222222222222';
    const list = await hawser.request('GET', `/v2/${project}/shares`, undefined, { token: MEMBER });
    expect(list.status).toBe(200);
    const wrong = await hawser.request('GET', `/v2/${'4'.repeat(32)}/shares`, undefined, {
      token: MEMBER,
    });
    expect(wrong.status).toBe(400);
  });
});
