import { startHawser, type HawserTestServer } from './test-support/hawser-test-server.js';

const PROJECT = '77777777777777777777777777777777';
const MEMBER = `carol:${PROJECT}:member,reader`;

describe('share types over HTTP: extra specs, private types and type access', () => {
  let hawser: HawserTestServer;
  beforeAll(async () => {
    hawser = await startHawser();
  });
  afterAll(() => hawser.close());

  const createType = (name: string, extra: Record<string, unknown> = {}) =>
    hawser.request('POST', '/v2/types', {
      share_type: { name, extra_specs: { driver_handles_share_servers: 'false' }, ...extra },
    });

  it('validates types and their extra specs as Manila does', async () => {
    expect((await createType('gold')).status).toBe(200);
    expect((await createType('gold')).status).toBe(409);
    const noDhss = await hawser.request('POST', '/v2/types', {
      share_type: { name: 'x', extra_specs: {} },
    });
    expect(noDhss.status).toBe(400);
    const asMember = await hawser.request(
      'POST',
      '/v2/types',
      { share_type: { name: 'y', extra_specs: {} } },
      { token: MEMBER },
    );
    expect(asMember.status).toBe(403);
    const id = (await hawser.request('GET', '/v2/types/gold')).body.share_type.id as string;
    const set = await hawser.request('POST', `/v2/types/${id}/extra_specs`, {
      extra_specs: { snapshot_support: 'True', replication_type: 'readable' },
    });
    expect(set.status).toBe(200);
    expect(
      (await hawser.request('GET', `/v2/types/${id}/extra_specs/snapshot_support`)).body,
    ).toEqual({
      snapshot_support: 'True',
    });
    const bad = await hawser.request('POST', `/v2/types/${id}/extra_specs`, {
      extra_specs: { replication_type: 'sync' },
    });
    expect(bad.status).toBe(400);
    // An empty set is answered as Manila does (200, echoed) and records nothing.
    const typeEvents = async () =>
      (
        await hawser.request(
          'GET',
          '/hawser/v1/events?limit=1000&event_type=ShareTypeExtraSpecsSet',
        )
      ).body.events.length as number;
    const before = await typeEvents();
    const empty = await hawser.request('POST', `/v2/types/${id}/extra_specs`, { extra_specs: {} });
    expect([empty.status, empty.body]).toEqual([200, { extra_specs: {} }]);
    expect(await typeEvents()).toBe(before);
    expect(
      (await hawser.request('DELETE', `/v2/types/${id}/extra_specs/driver_handles_share_servers`))
        .status,
    ).toBe(403);
    expect(
      (await hawser.request('DELETE', `/v2/types/${id}/extra_specs/snapshot_support`)).status,
    ).toBe(202);
    expect((await hawser.request('GET', `/v2/types/${id}/extra_specs`)).body.extra_specs).toEqual({
      driver_handles_share_servers: 'false',
      replication_type: 'readable',
    });
    // Members see the tenant-visible specs, with the inferred capabilities as false.
    const seen = await hawser.request('GET', `/v2/types/${id}`, undefined, { token: MEMBER });
    expect(seen.body.share_type.extra_specs).toMatchObject({
      snapshot_support: false,
      replication_type: 'readable',
    });
  });

  it('keeps a private type hidden until its project is given access', async () => {
    const created = await createType('private-gold', { 'share_type_access:is_public': false });
    const id = created.body.share_type.id as string;
    expect(created.body.share_type['share_type_access:is_public']).toBe(false);

    expect(
      (await hawser.request('GET', `/v2/types/${id}`, undefined, { token: MEMBER })).status,
    ).toBe(404);
    const hidden = await hawser.request('GET', '/v2/types', undefined, { token: MEMBER });
    expect(hidden.body.share_types.map((t: { name: string }) => t.name)).not.toContain(
      'private-gold',
    );
    const refused = await hawser.request(
      'POST',
      '/v2/shares',
      { share: { share_proto: 'NFS', size: 1, share_type: 'private-gold' } },
      { token: MEMBER },
    );
    expect(refused.status).toBe(404);

    const add = await hawser.request('POST', `/v2/types/${id}/action`, {
      addProjectAccess: { project: PROJECT },
    });
    expect(add.status).toBe(202);
    expect(
      (
        await hawser.request('POST', `/v2/types/${id}/action`, {
          addProjectAccess: { project: PROJECT },
        })
      ).status,
    ).toBe(409);
    expect(
      (await hawser.request('GET', `/v2/types/${id}/share_type_access`)).body.share_type_access,
    ).toEqual([{ share_type_id: id, project_id: PROJECT }]);
    expect(
      (await hawser.request('GET', `/v2/types/${id}`, undefined, { token: MEMBER })).status,
    ).toBe(200);
    const allowed = await hawser.request(
      'POST',
      '/v2/shares',
      { share: { share_proto: 'NFS', size: 1, share_type: 'private-gold' } },
      { token: MEMBER },
    );
    expect(allowed.status).toBe(200);

    const remove = await hawser.request('POST', `/v2/types/${id}/action`, {
      removeProjectAccess: { project: PROJECT },
    });
    expect(remove.status).toBe(202);
    expect(
      (await hawser.request('GET', `/v2/types/${id}`, undefined, { token: MEMBER })).status,
    ).toBe(404);
  });

  it('refuses bad access requests and never changes a public type', async () => {
    const gold = (await hawser.request('GET', '/v2/types/gold')).body.share_type.id as string;
    expect((await hawser.request('GET', `/v2/types/${gold}/share_type_access`)).status).toBe(404);
    expect(
      (
        await hawser.request('POST', `/v2/types/${gold}/action`, {
          addProjectAccess: { project: PROJECT },
        })
      ).status,
    ).toBe(409);
    expect(
      (
        await hawser.request('POST', `/v2/types/${gold}/action`, {
          addProjectAccess: { project: 'not a project!' },
        })
      ).status,
    ).toBe(400);
    expect(
      (await hawser.request('POST', `/v2/types/${gold}/action`, { makeItSo: {} })).status,
    ).toBe(400);
    const asMember = await hawser.request(
      'POST',
      `/v2/types/${gold}/action`,
      { addProjectAccess: { project: PROJECT } },
      { token: MEMBER },
    );
    expect(asMember.status).toBe(403);
  });

  it("takes a project given in any form Manila's uuid check takes, and refuses the rest in its words", async () => {
    const id = (await createType('private-forms', { 'share_type_access:is_public': false })).body
      .share_type.id as string;
    const access = (argument: unknown) =>
      hawser.request('POST', `/v2/types/${id}/action`, { addProjectAccess: argument });
    const taken = [
      'ABCDEF0123456789ABCDEF0123456789',
      '{01234567-89ab-cdef-0123-456789abcdee}',
      'urn:uuid:01234567-89ab-cdef-0123-456789abcded',
      '0123-4567-89ab-cdef-0123-456789abcdec',
    ];
    for (const project of taken) expect((await access({ project })).status).toBe(202);

    const refused: [unknown, string][] = [
      ['abc', 'abc'],
      ['----', '----'],
      ['0123456789abcdef0123456789abcdef00', '0123456789abcdef0123456789abcdef00'],
      [null, 'None'],
      [true, 'True'],
      [5, '5'],
      [['a'], "['a']"],
    ];
    for (const [project, printed] of refused) {
      const answer = await access({ project });
      expect([answer.status, answer.body.badRequest?.message]).toEqual([
        400,
        `Bad project format: project is not in proper format (${printed})`,
      ]);
    }
    const notAnObject = await access('abc');
    expect([notAnObject.status, notAnObject.body.badRequest?.message]).toEqual([
      400,
      'Malformed request body: addProjectAccess must be an object.',
    ]);

    // Both names of the listing answer at every microversion, as Manila's router maps them.
    for (const version of ['2.0', '2.72']) {
      for (const name of ['share_type_access', 'os-share-type-access']) {
        const listed = await hawser.request('GET', `/v2/types/${id}/${name}`, undefined, {
          version,
        });
        expect([
          listed.status,
          listed.body.share_type_access?.map((entry: { project_id: string }) => entry.project_id),
        ]).toEqual([200, taken]);
      }
    }
    const unknown = await hawser.request('GET', '/v2/types/no-such-type/os-share-type-access');
    expect([unknown.status, unknown.body.itemNotFound?.message]).toEqual([
      404,
      'Share type no-such-type not found.',
    ]);
  });

  it('refuses to delete a type that shares use', async () => {
    await createType('used');
    await hawser.request('POST', '/v2/shares', {
      share: { share_proto: 'NFS', size: 1, share_type: 'used' },
    });
    const id = (await hawser.request('GET', '/v2/types/used')).body.share_type.id as string;
    expect((await hawser.request('DELETE', `/v2/types/${id}`)).status).toBe(400);
  });
});
