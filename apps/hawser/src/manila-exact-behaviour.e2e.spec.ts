import {
  eventually,
  startHawser,
  type HawserTestServer,
} from './test-support/hawser-test-server.js';

const MEMBER = 'alice:22222222222222222222222222222222:member,reader';

describe("Manila's exact answers where Hawser differed", () => {
  let hawser: HawserTestServer;

  beforeAll(async () => {
    hawser = await startHawser();
    const type = await hawser.request('POST', '/v2/types', {
      share_type: { name: 'default', extra_specs: { driver_handles_share_servers: 'false' } },
    });
    expect(type.status).toBe(200);
  });
  afterAll(() => hawser.close());

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

  it('keeps the bare 404 for any other unknown path', async () => {
    const answer = await hawser.request('GET', '/v2/no-such-thing', undefined, { token: MEMBER });
    expect(answer.body.itemNotFound.message).toBe('The resource could not be found.');
  });

  it('refuses an ip rule for a network already granted in another notation (400), adding nothing', async () => {
    const created = await hawser.request(
      'POST',
      '/v2/shares',
      { share: { share_proto: 'NFS', size: 1, share_type: 'default' } },
      { token: MEMBER },
    );
    const id = created.body.share.id as string;
    await eventually(async () =>
      (await hawser.request('GET', `/v2/shares/${id}`)).body.share.status === 'available'
        ? true
        : undefined,
    );
    const allow = (accessTo: string) =>
      hawser.request(
        'POST',
        `/v2/shares/${id}/action`,
        { allow_access: { access_type: 'ip', access_to: accessTo } },
        { token: MEMBER },
      );
    expect((await allow('10.20.30.40')).status).toBe(200);
    expect((await allow('2001:db8::1')).status).toBe(200);
    const again = [await allow('10.20.30.40/32'), await allow('2001:0DB8:0:0:0:0:0:1/128')];
    expect(again.map((r) => r.status)).toEqual([400, 400]);
    expect(again[0]!.body.badRequest.message).toMatch(/exists/);
    const rules = await hawser.request('GET', `/v2/share-access-rules?share_id=${id}`, undefined, {
      token: MEMBER,
    });
    expect(rules.body.access_list).toHaveLength(2);
  });
});
