import {
  eventually,
  startHawser,
  type HawserTestServer,
} from './test-support/hawser-test-server.js';

const MEMBER = 'alice:22222222222222222222222222222222:member,reader';
const OTHER = 'bob:33333333333333333333333333333333:member,reader';

describe('snapshots over HTTP (given available shares on the simulated driver)', () => {
  let hawser: HawserTestServer;

  beforeAll(async () => {
    hawser = await startHawser();
    // Without the extra spec a share type has no snapshot support (reference 1.1).
    for (const [name, specs] of [
      ['snappy', { snapshot_support: 'true' }],
      ['plain', {}],
    ] as const) {
      const created = await hawser.request('POST', '/v2/types', {
        share_type: { name, extra_specs: { driver_handles_share_servers: 'false', ...specs } },
      });
      expect(created.status).toBe(200);
    }
  });
  afterAll(() => hawser.close());

  const createShare = async (shareType: string) => {
    const created = await hawser.request(
      'POST',
      '/v2/shares',
      { share: { share_proto: 'NFS', size: 1, share_type: shareType } },
      { token: MEMBER },
    );
    expect(created.status).toBe(200);
    return created.body.share.id as string;
  };
  const waitFor = (route: string, key: string, status: string, token = MEMBER) =>
    eventually(
      async () => {
        const show = await hawser.request('GET', route, undefined, { token });
        return show.body[key]?.status === status ? show.body[key] : undefined;
      },
      5_000,
      `${route} to be ${status}`,
    );
  const availableShare = async (shareType = 'snappy') => {
    const id = await createShare(shareType);
    await waitFor(`/v2/shares/${id}`, 'share', 'available');
    return id;
  };
  const snapshot = (shareId: string, token = MEMBER, name = 'snap') =>
    hawser.request(
      'POST',
      '/v2/snapshots',
      { snapshot: { share_id: shareId, name, description: 'first one' } },
      { token },
    );

  it('creates a snapshot (202, creating), which becomes available; lists, renames and deletes it', async () => {
    const shareId = await availableShare();
    const created = await snapshot(shareId);
    expect(created.status).toBe(202);
    expect(created.body.snapshot).toMatchObject({
      share_id: shareId,
      name: 'snap',
      description: 'first one',
      status: 'creating',
      size: 1,
      share_size: 1,
      share_proto: 'NFS',
      project_id: '22222222222222222222222222222222',
      user_id: 'alice',
    });
    expect(created.body.snapshot).not.toHaveProperty('provider_location');
    const id = created.body.snapshot.id as string;

    await waitFor(`/v2/snapshots/${id}`, 'snapshot', 'available');
    const asAdmin = await hawser.request('GET', `/v2/snapshots/${id}`);
    expect(asAdmin.body.snapshot.provider_location).toMatch(/^simulated:/);

    const locations = await hawser.request(
      'GET',
      `/v2/snapshots/${id}/export-locations`,
      undefined,
      { token: MEMBER },
    );
    expect(locations.body).toEqual({ share_snapshot_export_locations: [] });

    const list = await hawser.request('GET', `/v2/snapshots?share_id=${shareId}`, undefined, {
      token: MEMBER,
    });
    expect(list.body.snapshots).toEqual([
      expect.objectContaining({ id, name: 'snap', links: expect.any(Array) }),
    ]);
    const detail = await hawser.request('GET', '/v2/snapshots/detail?status=available', undefined, {
      token: MEMBER,
    });
    expect(detail.body.snapshots.map((s: { id: string }) => s.id)).toContain(id);
    const none = await hawser.request('GET', '/v2/snapshots/detail?name=nope', undefined, {
      token: MEMBER,
    });
    expect(none.body.snapshots).toEqual([]);
    // An empty filter is refused in Manila's words, under the name its API gives the filter.
    for (const [asked, named] of [
      ['status', 'status'],
      ['name', 'display_name'],
      ['description~', 'display_description~'],
    ]) {
      const empty = await hawser.request('GET', `/v2/snapshots?${asked}=`, undefined, {
        token: MEMBER,
      });
      expect(empty.status).toBe(400);
      expect(empty.body.badRequest.message).toBe(
        `Invalid input received: Wrong '${named}' filter provided: ''.`,
      );
    }

    const renamed = await hawser.request(
      'PUT',
      `/v2/snapshots/${id}`,
      { snapshot: { display_name: 'renamed' } },
      { token: MEMBER },
    );
    expect(renamed.status).toBe(200);
    expect(renamed.body.snapshot.name).toBe('renamed');

    const shareDelete = await hawser.request('DELETE', `/v2/shares/${shareId}`, undefined, {
      token: MEMBER,
    });
    expect(shareDelete.status).toBe(403);
    const forced = await hawser.request('POST', `/v2/shares/${shareId}/action`, {
      force_delete: null,
    });
    expect(forced.status).toBe(400);

    const deleted = await hawser.request('DELETE', `/v2/snapshots/${id}`, undefined, {
      token: MEMBER,
    });
    expect(deleted.status).toBe(202);
    await eventually(
      async () =>
        (await hawser.request('GET', `/v2/snapshots/${id}`, undefined, { token: MEMBER }))
          .status === 404
          ? true
          : undefined,
      5_000,
      'snapshot to be gone',
    );
    const shareGone = await hawser.request('DELETE', `/v2/shares/${shareId}`, undefined, {
      token: MEMBER,
    });
    expect(shareGone.status).toBe(202);
  });

  it('refuses a type without snapshot_support (422), a share not available (400), a missing body (422)', async () => {
    const plain = await availableShare('plain');
    expect((await snapshot(plain)).status).toBe(422);

    const broken = await availableShare();
    const reset = await hawser.request('POST', `/v2/shares/${broken}/action`, {
      reset_status: { status: 'error' },
    });
    expect(reset.status).toBe(202);
    expect((await snapshot(broken)).status).toBe(400);

    const noBody = await hawser.request('POST', '/v2/snapshots', { share: {} }, { token: MEMBER });
    expect(noBody.status).toBe(422);
  });

  it('hides another project’s snapshot (404) and keeps admin actions for admins', async () => {
    const shareId = await availableShare();
    const created = await snapshot(shareId);
    const id = created.body.snapshot.id as string;
    await waitFor(`/v2/snapshots/${id}`, 'snapshot', 'available');

    expect(
      (await hawser.request('GET', `/v2/snapshots/${id}`, undefined, { token: OTHER })).status,
    ).toBe(404);
    const othersList = await hawser.request('GET', '/v2/snapshots', undefined, { token: OTHER });
    expect(othersList.body.snapshots).toEqual([]);
    const all = await hawser.request('GET', '/v2/snapshots?all_tenants=1');
    expect(all.body.snapshots.map((s: { id: string }) => s.id)).toContain(id);
    expect(
      (await hawser.request('DELETE', `/v2/snapshots/${id}`, undefined, { token: OTHER })).status,
    ).toBe(404);

    const second = await snapshot(shareId, MEMBER, 'second');
    expect(second.status).toBe(202);
    const firstPage = await hawser.request(
      'GET',
      `/v2/snapshots?share_id=${shareId}&limit=1&sort_key=name&sort_dir=asc`,
      undefined,
      { token: MEMBER },
    );
    expect(firstPage.body.snapshots.map((s: { name: string }) => s.name)).toEqual(['second']);
    const next = new URL(firstPage.body.share_snapshots_links[0].href);
    expect(next.searchParams.get('offset')).toBe('1');
    const secondPage = await hawser.request('GET', `${next.pathname}${next.search}`, undefined, {
      token: MEMBER,
    });
    expect(secondPage.body.snapshots.map((s: { name: string }) => s.name)).toEqual(['snap']);
    expect(secondPage.body).not.toHaveProperty('share_snapshots_links');

    const memberReset = await hawser.request(
      'POST',
      `/v2/snapshots/${id}/action`,
      { reset_status: { status: 'error' } },
      { token: MEMBER },
    );
    expect(memberReset.status).toBe(403);
    const reset = await hawser.request('POST', `/v2/snapshots/${id}/action`, {
      reset_status: { status: 'creating' },
    });
    expect(reset.status).toBe(202);
    const refused = await hawser.request('DELETE', `/v2/snapshots/${id}`, undefined, {
      token: MEMBER,
    });
    expect(refused.status).toBe(400);
    const forced = await hawser.request('POST', `/v2/snapshots/${id}/action`, {
      force_delete: null,
    });
    expect(forced.status).toBe(202);
    await eventually(
      async () =>
        (await hawser.request('GET', `/v2/snapshots/${id}`)).status === 404 ? true : undefined,
      5_000,
      'force-deleted snapshot to be gone',
    );
  });

  it('keeps snapshot metadata from 2.73: create, show, merge, replace, item, delete, filter', async () => {
    const shareId = await availableShare();
    const v = { token: MEMBER, version: '2.73' };
    const created = await hawser.request(
      'POST',
      '/v2/snapshots',
      { snapshot: { share_id: shareId, name: 'tagged', metadata: { tier: 'gold' } } },
      v,
    );
    expect(created.status).toBe(202);
    expect(created.body.snapshot.metadata).toEqual({ tier: 'gold' });
    const id = created.body.snapshot.id as string;
    const route = `/v2/snapshots/${id}/metadata`;

    expect((await hawser.request('GET', route, undefined, v)).body).toEqual({
      metadata: { tier: 'gold' },
    });
    const merged = await hawser.request('POST', route, { metadata: { zone: 'a' } }, v);
    expect(merged.status).toBe(200);
    expect(merged.body).toEqual({ metadata: { tier: 'gold', zone: 'a' } });
    const replaced = await hawser.request('PUT', route, { metadata: { zone: 'b' } }, v);
    expect(replaced.body).toEqual({ metadata: { zone: 'b' } });
    expect((await hawser.request('GET', `${route}/zone`, undefined, v)).body).toEqual({
      meta: { zone: 'b' },
    });
    const filtered = await hawser.request(
      'GET',
      `/v2/snapshots?metadata=${encodeURIComponent("{'zone': 'b'}")}`,
      undefined,
      v,
    );
    expect(filtered.body.snapshots.map((x: { id: string }) => x.id)).toEqual([id]);

    expect((await hawser.request('DELETE', `${route}/zone`, undefined, v)).status).toBe(200);
    expect((await hawser.request('GET', `${route}/zone`, undefined, v)).status).toBe(404);
    expect((await hawser.request('DELETE', `${route}/zone`, undefined, v)).status).toBe(404);
    const shown = await hawser.request('GET', `/v2/snapshots/${id}`, undefined, v);
    expect(shown.body.snapshot.metadata).toEqual({});

    // Malformed bodies, other projects and older microversions change nothing.
    expect((await hawser.request('POST', route, { metadata: { k: 1 } }, v)).status).toBe(400);
    expect((await hawser.request('POST', route, { metadata: { k: '' } }, v)).status).toBe(400);
    const other = await hawser.request(
      'POST',
      route,
      { metadata: { k: 'v' } },
      {
        token: OTHER,
        version: '2.73',
      },
    );
    expect(other.status).toBe(404);
    const old = await hawser.request('GET', route, undefined, { token: MEMBER, version: '2.72' });
    expect(old.status).toBe(404);
    expect((await hawser.request('GET', route, undefined, v)).body).toEqual({ metadata: {} });
  });
});
