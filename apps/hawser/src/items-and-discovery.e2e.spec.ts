import { availableDefaultShare, createDefaultType } from './test-support/default-share-type.js';
import { startHawser, type HawserTestServer } from './test-support/hawser-test-server.js';

const MEMBER = 'alice:22222222222222222222222222222222:member,reader';

describe('one metadata item, one extra spec, versions and extensions over HTTP', () => {
  let hawser: HawserTestServer;
  let typeId: string;
  let shareId: string;

  beforeAll(async () => {
    hawser = await startHawser();
    typeId = await createDefaultType(hawser);
    shareId = await availableDefaultShare(
      (method, route, body) => hawser.request(method, route, body, { token: MEMBER }),
      { metadata: { a: '1' } },
    );
  });
  afterAll(() => hawser.close());

  const metadataOf = async () =>
    (await hawser.request('GET', `/v2/shares/${shareId}/metadata`, undefined, { token: MEMBER }))
      .body.metadata;

  it('POST /shares/{id}/metadata/{key} sets that item (200, the item) and keeps the others', async () => {
    const set = await hawser.request(
      'POST',
      `/v2/shares/${shareId}/metadata/b`,
      { metadata: { b: '2' } },
      { token: MEMBER },
    );
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ metadata: { b: '2' } });
    expect(await metadataOf()).toEqual({ a: '1', b: '2' });
  });

  it('refuses a metadata item that does not match the path, or several (400), changing nothing', async () => {
    const before = await metadataOf();
    const post = (body: unknown) =>
      hawser.request('POST', `/v2/shares/${shareId}/metadata/c`, body, { token: MEMBER });
    const refused = [
      await post({ metadata: { d: '1' } }),
      await post({ metadata: { c: '1', d: '2' } }),
      await post({ metadata: { c: 1 } }),
      await post({ other: {} }),
    ];
    expect(refused.map((r) => r.status)).toEqual([400, 400, 400, 400]);
    expect(refused[0]!.body.badRequest.message).toMatch(/Request body and URI mismatch/);
    expect(refused[1]!.body.badRequest.message).toMatch(/too many items/);
    expect(await metadataOf()).toEqual(before);
  });

  it('PUT /types/{id}/extra_specs/{key} updates one extra spec (200, the spec)', async () => {
    const put = await hawser.request('PUT', `/v2/types/${typeId}/extra_specs/snapshot_support`, {
      snapshot_support: true,
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ snapshot_support: 'True' });
    const shown = await hawser.request('GET', `/v2/types/${typeId}/extra_specs/snapshot_support`);
    expect(shown.body).toEqual({ snapshot_support: 'True' });
  });

  it('refuses a bad extra spec item (400, 403, 404), changing nothing', async () => {
    const before = (await hawser.request('GET', `/v2/types/${typeId}/extra_specs`)).body;
    const put = (key: string, body: unknown, token?: string) =>
      hawser.request('PUT', `/v2/types/${typeId}/extra_specs/${key}`, body, { token });
    const refused = [
      await put('colour', {}),
      await put('colour', { color: 'blue' }),
      await put('colour', { colour: 'blue', size: 'big' }),
      await put('snapshot_support', { snapshot_support: 'maybe' }),
      await put('colour', { colour: 'blue' }, MEMBER),
      await hawser.request('PUT', '/v2/types/00000000-0000-4000-8000-000000000000/extra_specs/a', {
        a: 'b',
      }),
    ];
    expect(refused.map((r) => r.status)).toEqual([400, 400, 400, 400, 403, 404]);
    expect((await hawser.request('GET', `/v2/types/${typeId}/extra_specs`)).body).toEqual(before);
  });

  it('answers the v2 versions document at /v2 and /v2/ (200), lists only v2 at /, and no extensions', async () => {
    for (const path of ['/v2', '/v2/']) {
      const v2 = await hawser.request('GET', path, undefined, { token: '' });
      expect(v2.status).toBe(200);
      expect(v2.body.versions).toHaveLength(1);
      expect(v2.body.versions[0]).toMatchObject({
        id: 'v2.0',
        status: 'CURRENT',
        version: '2.73',
        min_version: '2.0',
      });
    }
    const root = await hawser.request('GET', '/', undefined, { token: '' });
    expect(root.status).toBe(300);
    expect(root.body.versions.map((v: { id: string }) => v.id)).toEqual(['v2.0']);
    const v1 = await hawser.request('GET', '/v1/shares', undefined, { token: MEMBER });
    expect(v1.status).toBe(404);

    const extensions = await hawser.request('GET', '/v2/extensions', undefined, { token: MEMBER });
    expect(extensions.status).toBe(200);
    expect(extensions.body).toEqual({ extensions: [] });
    const withProject = await hawser.request(
      'GET',
      '/v2/22222222222222222222222222222222/extensions',
      undefined,
      { token: MEMBER },
    );
    expect(withProject.body).toEqual({ extensions: [] });
    expect((await hawser.request('GET', '/v2/extensions/os-foo')).status).toBe(404);
    expect((await hawser.request('GET', '/v2/extensions', undefined, { token: '' })).status).toBe(
      401,
    );
  });
});
