import {
  eventually,
  startHawser,
  type HawserTestServer,
} from './test-support/hawser-test-server.js';

const PROJECT = '6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b';
const MEMBER = `ivan:${PROJECT}:member,reader`;

/** Listing parameters Manila parses strictly: booleans, all_tenants, the types' extra_specs. */
describe('listing parameters over HTTP', () => {
  let hawser: HawserTestServer;
  let shareId: string;

  beforeAll(async () => {
    hawser = await startHawser();
    await hawser.request('POST', '/v2/types', {
      share_type: { name: 'default', extra_specs: { driver_handles_share_servers: 'false' } },
    });
    await hawser.request('POST', '/v2/types', {
      share_type: {
        name: 'zoned',
        extra_specs: {
          driver_handles_share_servers: 'false',
          snapshot_support: 'True',
          availability_zones: 'az-1,az-2',
        },
      },
    });
    const created = await hawser.request(
      'POST',
      '/v2/shares',
      { share: { share_proto: 'NFS', size: 1, share_type: 'default' } },
      { token: MEMBER },
    );
    shareId = created.body.share.id;
  });
  afterAll(() => hawser.close());

  it('answers a non-boolean with_count, is_public or is_soft_deleted with a 400', async () => {
    for (const query of ['with_count=maybe', 'is_public=maybe', 'is_soft_deleted=perhaps']) {
      const listed = await hawser.request('GET', `/v2/shares?${query}`, undefined, {
        token: MEMBER,
      });
      expect(listed.status).toBe(400);
      expect(listed.body.badRequest.message).toMatch(/Expecting a boolean/);
    }
    const counted = await hawser.request('GET', '/v2/shares?with_count=yes', undefined, {
      token: MEMBER,
    });
    expect(counted.body.count).toBe(1);
  });

  it('takes an empty all_tenants as yes for admins', async () => {
    const own = await hawser.request('GET', '/v2/shares');
    expect(own.body.shares).toEqual([]);
    const all = await hawser.request('GET', '/v2/shares?all_tenants');
    expect(all.body.shares.map((s: { id: string }) => s.id)).toEqual([shareId]);
  });

  it('filters share types by extra_specs from 2.43, a 400 before', async () => {
    const names = async (filter: string, version = '2.43') => {
      const listed = await hawser.request(
        'GET',
        `/v2/types?extra_specs=${encodeURIComponent(filter)}`,
        undefined,
        { token: MEMBER, version },
      );
      expect(listed.status).toBe(200);
      expect(listed.body.volume_types).toEqual(listed.body.share_types);
      return listed.body.share_types.map((t: { name: string }) => t.name);
    };
    expect(await names("{'snapshot_support': 'True'}")).toEqual(['zoned']);
    expect(await names("{'driver_handles_share_servers': 'false'}")).toEqual(['default', 'zoned']);
    expect(await names("{'availability_zones': 'az-2'}")).toEqual(['default', 'zoned']);
    expect(await names("{'availability_zones': 'az-3'}")).toEqual(['default']);

    const early = await hawser.request('GET', "/v2/types?extra_specs={'a':'b'}", undefined, {
      version: '2.42',
    });
    expect(early.status).toBe(400);
    expect(early.body.badRequest.message).toMatch(/not supported by this microversion/);
    const malformed = await hawser.request('GET', '/v2/types?extra_specs=notadict');
    expect(malformed.status).toBe(400);
  });

  it("filters shares by their type's extra_specs, host, group and server, as Manila does", async () => {
    const zoned = await hawser.request(
      'POST',
      '/v2/shares',
      { share: { share_proto: 'NFS', size: 1, share_type: 'zoned' } },
      { token: MEMBER },
    );
    expect(zoned.status).toBe(200);
    const ids = async (query: string) => {
      const listed = await hawser.request('GET', `/v2/shares?all_tenants=1&${query}`);
      expect(listed.status).toBe(200);
      return listed.body.shares.map((s: { id: string }) => s.id).sort();
    };
    const both = [shareId, zoned.body.share.id].sort();
    const specs = (filter: string) => `extra_specs=${encodeURIComponent(filter)}`;

    expect(await ids(specs("{'snapshot_support': 'True'}"))).toEqual([zoned.body.share.id]);
    expect(await ids(specs("{'driver_handles_share_servers': 'false'}"))).toEqual(both);
    expect(
      await ids(specs("{'driver_handles_share_servers': 'false', 'snapshot_support': 'True'}")),
    ).toEqual([zoned.body.share.id]);
    expect(await ids(specs("{'snapshot_support': 'False'}"))).toEqual([]);
    const defaultType = (await hawser.request('GET', `/v2/shares/${shareId}`)).body.share
      .share_type;
    expect(
      await ids(`${specs("{'snapshot_support': 'True'}")}&share_type_id=${defaultType}`),
    ).toEqual([]);
    const malformed = await hawser.request('GET', `/v2/shares?${specs('{notadict')}`);
    expect(malformed.status).toBe(400);
    expect(malformed.body.badRequest.message).toBe('Invalid extra_specs filter: {notadict');

    await eventually(
      async () => ((await ids('host=nowhere@none%23pool')).length === 0 ? true : undefined),
      10_000,
      'an unknown host to match nothing',
    );
    const placed = await eventually(
      async () => {
        const shown = await hawser.request('GET', `/v2/shares/${shareId}`);
        return shown.body.share.host || undefined;
      },
      10_000,
      'the share to be placed',
    );
    expect(await ids(`host=${encodeURIComponent(placed)}`)).toContain(shareId);

    // No share has a group or a share server: those filters match none, as in Manila.
    expect(await ids('share_group_id=any')).toEqual([]);
    expect(await ids('share_server_id=any')).toEqual([]);
    expect(await ids('share_group_snapshot_id=any')).toEqual(both);

    // A member passes none of the rules under the defaults: Manila's 403, not a silent full list.
    for (const [query, rule] of [
      [specs("{'snapshot_support': 'True'}"), 'share_types_extra_spec:index'],
      [`host=${encodeURIComponent(placed)}`, 'share:list_by_host'],
      ['share_server_id=any', 'share:list_by_share_server_id'],
    ]) {
      const refused = await hawser.request('GET', `/v2/shares/detail?${query}`, undefined, {
        token: MEMBER,
      });
      expect(refused.status).toBe(403);
      expect(refused.body.forbidden.message).toContain(rule);
    }
  });

  it("reads sort_key and sort_dir as Manila's shares and snapshots listings do, each its own way", async () => {
    const asked = async (path: string) => {
      const answer = await hawser.request('GET', path, undefined, { token: MEMBER });
      return [answer.status, answer.body.badRequest?.message];
    };
    // Shares (Manila's apply_sorting): asc or desc in any case, the direction checked first.
    expect(await asked('/v2/shares?sort_dir=ASC')).toEqual([200, undefined]);
    expect(await asked('/v2/shares?sort_key=bogus&sort_dir=sideways')).toEqual([
      400,
      "Invalid input received: Wrong sorting data provided: sort key is 'bogus' and sort direction is 'sideways'.",
    ]);
    expect(await asked('/v2/shares?sort_key=bogus')).toEqual([
      400,
      "Invalid input received: Wrong sorting key provided - 'bogus'.",
    ]);
    // Snapshots and messages (Manila's paginate_query): any direction but desc is ascending.
    for (const path of ['/v2/snapshots', '/v2/messages']) {
      expect(await asked(`${path}?sort_dir=sideways`)).toEqual([200, undefined]);
      expect(await asked(`${path}?sort_key=bogus`)).toEqual([
        400,
        'Invalid input received: Invalid sort key bogus.',
      ]);
    }
  });
});
