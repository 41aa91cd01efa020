import { availableDefaultShare, createDefaultType } from './test-support/default-share-type.js';
import { startHawser, type HawserTestServer } from './test-support/hawser-test-server.js';

const MEMBER = 'alice:22222222222222222222222222222222:member,reader';

describe("Manila's exact answers where Hawser differed", () => {
  let hawser: HawserTestServer;

  beforeAll(async () => {
    hawser = await startHawser();
    await createDefaultType(hawser);
  });
  afterAll(() => hawser.close());

  /** An available share of the member's, and a grant of an ip rule on it. */
  const shareGrantingIp = async () => {
    const id = await availableDefaultShare((method, route, body) =>
      hawser.request(method, route, body, { token: MEMBER }),
    );
    const allow = (accessTo: string) =>
      hawser.request(
        'POST',
        `/v2/shares/${id}/action`,
        { allow_access: { access_type: 'ip', access_to: accessTo } },
        { token: MEMBER },
      );
    return { id, allow };
  };

  it.each([
    ['/v2/share-networks', 'Share networks'],
    ['/v2/22222222222222222222222222222222/share-networks/detail', 'Share networks'],
    ['/v2/share-servers', 'Share servers'],
    ['/v2/security-services', 'Security services'],
    ['/v2/share-groups', 'Share groups'],
    ['/v2/share-group-types', 'Share groups'],
  ])('answers %s with a 404 that says %s are not supported here', async (path, family) => {
    const answer = await hawser.request('GET', path, undefined, { token: MEMBER });
    expect(answer.status).toBe(404);
    expect(answer.body.itemNotFound.message).toBe(
      `${family} are not supported by this deployment: it serves back ends without share ` +
        'servers (driver_handles_share_servers=False) only.',
    );
  });

  it('refuses a share in a share group from 2.31 (there are none here) and creates nothing', async () => {
    const create = (version: string) =>
      hawser.request(
        'POST',
        '/v2/shares',
        { share: { share_proto: 'NFS', size: 1, share_type: 'default', share_group_id: 'sg-1' } },
        { token: MEMBER, version },
      );
    const listed = async () =>
      (await hawser.request('GET', '/v2/shares', undefined, { token: MEMBER })).body.shares
        .length as number;
    const before = await listed();
    const refused = await create('2.31');
    expect([refused.status, refused.body.itemNotFound?.message]).toEqual([
      404,
      'Share group sg-1 could not be found.',
    ]);
    expect(await listed()).toBe(before);
    // Before 2.31 Manila drops the key unread.
    const old = await create('2.30');
    expect([old.status, old.body.badRequest?.message]).toEqual([200, undefined]);
  });

  it("reads is_public as oslo's strict bool_from_string: 0 is false, null is refused in its words, changing nothing", async () => {
    const refused =
      "Unrecognized value 'None', acceptable values are: " +
      "'0', '1', 'f', 'false', 'n', 'no', 'off', 'on', 't', 'true', 'y', 'yes'";
    const request = (method: string, route: string, body: unknown) =>
      hawser.request(method, route, body, { token: MEMBER });
    const count = async () =>
      (await request('GET', '/v2/shares', undefined)).body.shares.length as number;
    const before = await count();
    const create = await request('POST', '/v2/shares', {
      share: { share_proto: 'NFS', size: 1, share_type: 'default', is_public: null },
    });
    expect([create.status, create.body.badRequest?.message]).toEqual([400, refused]);
    expect(await count()).toBe(before);

    const { id } = await shareGrantingIp();
    const update = (isPublic: unknown) =>
      request('PUT', `/v2/shares/${id}`, {
        share: { is_public: isPublic, display_name: 'renamed' },
      });
    const nulled = await update(null);
    expect([nulled.status, nulled.body.badRequest?.message]).toEqual([400, refused]);
    expect((await request('GET', `/v2/shares/${id}`, undefined)).body.share.name).not.toBe(
      'renamed',
    );
    const zero = await update(0);
    expect([zero.status, zero.body.share?.is_public, zero.body.share?.name]).toEqual([
      200,
      false,
      'renamed',
    ]);
  });

  it('reads an action by the name Manila gives it at the version asked, changing nothing under another', async () => {
    const { id, allow } = await shareGrantingIp();
    expect((await allow('10.9.0.1')).status).toBe(200);
    const action = (body: unknown, version: string) =>
      hawser.request('POST', `/v2/shares/${id}/action`, body, { token: MEMBER, version });
    const answer = async (body: unknown, version: string) => {
      const { status, body: fault } = await action(body, version);
      return [status, fault?.itemNotFound?.message ?? fault?.badRequest?.message];
    };
    const size = async () =>
      (await hawser.request('GET', `/v2/shares/${id}`, undefined, { token: MEMBER })).body.share
        .size as number;

    // Before 2.7 Manila knows these actions only by their os- names, from 2.7 only without.
    expect(await answer({ access_list: null }, '2.6')).toEqual([
      404,
      'The resource could not be found.',
    ]);
    expect(await answer({ extend: { new_size: 2 } }, '2.6')).toEqual([
      404,
      'The resource could not be found.',
    ]);
    expect(await answer({ 'os-extend': { new_size: 2 } }, '2.7')).toEqual([
      404,
      'The resource could not be found.',
    ]);
    expect(await size()).toBe(1);
    expect((await action({ 'os-access_list': null }, '2.6')).body.access_list).toHaveLength(1);
    // An action that never had an os- name is no action under one.
    expect(await answer({ 'os-unmanage': null }, '2.6')).toEqual([
      400,
      'There is no such action: os-unmanage',
    ]);
  });

  it("refuses an ip rule that is no network in Python's words, a zoned IPv6 address too, adding nothing", async () => {
    const { id, allow } = await shareGrantingIp();
    const refusals: [accessTo: string, message: string][] = [
      ['10.0.0.1/24', '10.0.0.1/24 has host bits set'],
      ['10.0.0.256', "'10.0.0.256' does not appear to be an IPv4 or IPv6 network"],
      // Answered with a 500 before: the zone broke the comparison with the share's rules.
      ['fe80::1%eth0', "'fe80::1%eth0': an IPv6 zone is not taken in an access rule"],
    ];
    for (const [accessTo, message] of refusals) {
      const refused = await allow(accessTo);
      expect([accessTo, refused.status, refused.body.badRequest?.message]).toEqual([
        accessTo,
        400,
        message,
      ]);
    }
    const rules = await hawser.request('GET', `/v2/share-access-rules?share_id=${id}`, undefined, {
      token: MEMBER,
    });
    expect(rules.body.access_list).toEqual([]);
    expect((await allow('10.0.0.0/24')).status).toBe(200);
  });

  it('keeps the bare 404 for any other unknown path', async () => {
    const answer = await hawser.request('GET', '/v2/no-such-thing', undefined, { token: MEMBER });
    expect(answer.body.itemNotFound.message).toBe('The resource could not be found.');
  });

  it('refuses an ip rule for a network already granted in another notation (400), adding nothing', async () => {
    const { id, allow } = await shareGrantingIp();
    expect((await allow('10.20.30.40')).status).toBe(200);
    expect((await allow('2001:db8::1')).status).toBe(200);
    const again = [await allow('10.20.30.40/32'), await allow('2001:0DB8:0:0:0:0:0:1/128')];
    expect(again.map((r) => r.status)).toEqual([400, 400]);
    expect(again[0]!.body.badRequest.message).toMatch(/exists/);
    const rules = await hawser.request('GET', `/v2/share-access-rules?share_id=${id}`, undefined, {
      token: MEMBER,
    });
    expect(rules.body.access_list).toHaveLength(2);

    // Listing by metadata returns every rule that holds it, and only those.
    for (const [to, purpose] of [
      ['10.0.0.1', 'backup'],
      ['10.0.0.2', 'backup'],
      ['10.0.0.3', 'app'],
    ] as const) {
      const allowed = await hawser.request(
        'POST',
        `/v2/shares/${id}/action`,
        { allow_access: { access_type: 'ip', access_to: to, metadata: { purpose } } },
        { token: MEMBER },
      );
      expect(allowed.status).toBe(200);
    }
    const byMetadata = await hawser.request(
      'GET',
      `/v2/share-access-rules?share_id=${id}&metadata=${encodeURIComponent("{'purpose': 'backup'}")}`,
      undefined,
      { token: MEMBER },
    );
    expect(byMetadata.status).toBe(200);
    expect(
      byMetadata.body.access_list.map((r: { access_to: string }) => r.access_to).sort(),
    ).toEqual(['10.0.0.1', '10.0.0.2']);
  });

  describe('share types', () => {
    const create = (name: string, extra: Record<string, unknown>, version: string) =>
      hawser.request(
        'POST',
        '/v2/types',
        {
          share_type: {
            name,
            extra_specs: { driver_handles_share_servers: 'false' },
            ...extra,
          },
        },
        { version },
      );
    const names = async () =>
      (await hawser.request('GET', '/v2/types')).body.share_types
        .map((t: { name: string }) => t.name)
        .sort() as string[];

    it('refuses a description before 2.41 (400), creating nothing', async () => {
      const early = await create('described', { description: 'd' }, '2.40');
      expect(early.status).toBe(400);
      expect(early.body.badRequest.message).toMatch(/'description' key is not supported/);
      expect(await names()).not.toContain('described');
      expect((await create('described', { description: 'd' }, '2.41')).status).toBe(200);
    });

    it('refuses to rename a type to a name in use (409), renaming nothing', async () => {
      const first = await create('first', {}, '2.50');
      expect((await create('second', {}, '2.50')).status).toBe(200);
      const id = first.body.share_type.id as string;
      const rename = await hawser.request(
        'PUT',
        `/v2/types/${id}`,
        { share_type: { name: 'second' } },
        { version: '2.50' },
      );
      expect(rename.status).toBe(409);
      expect((await hawser.request('GET', `/v2/types/${id}`)).body.share_type.name).toBe('first');
    });

    it('unsets a description given as an empty string: the type then shows none', async () => {
      const made = await create('unset-me', { description: 'to go' }, '2.50');
      const id = made.body.share_type.id as string;
      const unset = await hawser.request(
        'PUT',
        `/v2/types/${id}`,
        { share_type: { description: '' } },
        { version: '2.50' },
      );
      expect(unset.status).toBe(200);
      expect(unset.body.share_type.description).toBeNull();
    });

    it("refuses to delete a required extra spec with Manila's 403", async () => {
      const made = await create('required', {}, '2.50');
      const refused = await hawser.request(
        'DELETE',
        `/v2/types/${made.body.share_type.id}/extra_specs/driver_handles_share_servers`,
      );
      expect(refused.status).toBe(403);
      expect(refused.body.forbidden.message).toBe(
        "Extra spec 'driver_handles_share_servers' can't be deleted.",
      );
    });

    it('gives a type made before 2.24 snapshot_support, and refuses an empty key or a number (400)', async () => {
      const old = await create('old', {}, '2.23');
      expect(old.body.share_type.extra_specs.snapshot_support).toBe('True');
      const specs = (extra: Record<string, unknown>) =>
        hawser.request('POST', `/v2/types/${old.body.share_type.id}/extra_specs`, {
          extra_specs: extra,
        });
      expect((await specs({ '': 'x' })).status).toBe(400);
      expect((await specs({ k: 1 })).status).toBe(400);
      expect((await specs({ k: true })).body.extra_specs).toEqual({ k: 'True' });
    });
  });
});
