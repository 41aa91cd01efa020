import fs from 'node:fs';
import path from 'node:path';
import { sampleBackends } from '#hawser/drivers';
import {
  eventually,
  startHawser,
  type HawserTestServer,
} from './test-support/hawser-test-server.js';
import { simulatedBackends } from './test-support/simulated-backends.js';

const MEMBER = 'alice:22222222222222222222222222222222:member,reader';
const OTHER = 'bob:33333333333333333333333333333333:member,reader';

const setUp = async (hawser: HawserTestServer) => {
  const created = await hawser.request('POST', '/v2/types', {
    share_type: {
      name: 'default',
      extra_specs: { driver_handles_share_servers: 'false', snapshot_support: 'true' },
    },
  });
  expect(created.status).toBe(200);
};

const availableShare = async (hawser: HawserTestServer, size = 1) => {
  const created = await hawser.request(
    'POST',
    '/v2/shares',
    { share: { share_proto: 'NFS', size, share_type: 'default' } },
    { token: MEMBER },
  );
  expect(created.status).toBe(200);
  const id = created.body.share.id as string;
  await shareWith(hawser, id, (s) => s.status === 'available');
  return id;
};

const shareWith = (
  hawser: HawserTestServer,
  id: string,
  test: (share: Record<string, unknown>) => boolean,
) =>
  eventually(
    async () => {
      const show = await hawser.request('GET', `/v2/shares/${id}`, undefined, { token: MEMBER });
      return test(show.body.share) ? show.body.share : undefined;
    },
    5_000,
    `share ${id} to match`,
  );

const allow = (
  hawser: HawserTestServer,
  shareId: string,
  access: Record<string, unknown>,
  options: { version?: string; token?: string } = {},
) =>
  hawser.request(
    'POST',
    `/v2/shares/${shareId}/action`,
    { allow_access: access },
    { token: MEMBER, ...options },
  );

const ruleState = (hawser: HawserTestServer, id: string, state: string) =>
  eventually(
    async () => {
      const show = await hawser.request('GET', `/v2/share-access-rules/${id}`, undefined, {
        token: MEMBER,
      });
      return show.body.access?.state === state ? show.body.access : undefined;
    },
    5_000,
    `rule ${id} to be ${state}`,
  );

describe('access rules and resizing over HTTP (simulated driver)', () => {
  let hawser: HawserTestServer;

  beforeAll(async () => {
    hawser = await startHawser();
    await setUp(hawser);
  });
  afterAll(() => hawser.close());

  it('allows a rule (200, queued_to_apply), which the node makes active; denies it until it is gone', async () => {
    const shareId = await availableShare(hawser);
    const allowed = await allow(hawser, shareId, {
      access_type: 'ip',
      access_to: '10.0.0.0/24',
      access_level: 'ro',
      metadata: { purpose: 'backup' },
    });
    expect(allowed.status).toBe(200);
    expect(allowed.body.access).toMatchObject({
      share_id: shareId,
      access_type: 'ip',
      access_to: '10.0.0.0/24',
      access_level: 'ro',
      access_key: null,
      metadata: { purpose: 'backup' },
    });
    expect(['queued_to_apply', 'applying', 'active']).toContain(allowed.body.access.state);
    const id = allowed.body.access.id as string;

    const active = await ruleState(hawser, id, 'active');
    expect(active.share_id).toBe(shareId);
    await shareWith(hawser, shareId, (s) => s.access_rules_status === 'active');

    const list = await hawser.request(
      'GET',
      `/v2/share-access-rules?share_id=${shareId}`,
      undefined,
      { token: MEMBER },
    );
    expect(list.status).toBe(200);
    expect(list.body.access_list).toEqual([
      expect.objectContaining({ id, access_to: '10.0.0.0/24', state: 'active' }),
    ]);
    expect(list.body.access_list[0]).not.toHaveProperty('share_id');

    const legacy = await hawser.request(
      'POST',
      `/v2/shares/${shareId}/action`,
      { access_list: null },
      { token: MEMBER, version: '2.44' },
    );
    expect(legacy.status).toBe(200);
    expect(legacy.body.access_list).toEqual([expect.objectContaining({ id, state: 'active' })]);

    const denied = await hawser.request(
      'POST',
      `/v2/shares/${shareId}/action`,
      { deny_access: { access_id: id } },
      { token: MEMBER },
    );
    expect(denied.status).toBe(202);
    await eventually(
      async () =>
        (await hawser.request('GET', `/v2/share-access-rules/${id}`, undefined, { token: MEMBER }))
          .status === 404
          ? true
          : undefined,
      5_000,
      'denied rule to be gone',
    );
    const unknown = await hawser.request(
      'POST',
      `/v2/shares/${shareId}/action`,
      { deny_access: { access_id: id } },
      { token: MEMBER },
    );
    expect(unknown.status).toBe(404);
  });

  it("updates and unsets a rule's metadata (2.45+) without touching the driver", async () => {
    const shareId = await availableShare(hawser);
    const allowed = await allow(hawser, shareId, {
      access_type: 'ip',
      access_to: '10.9.0.0/16',
      metadata: { owner: 'ops' },
    });
    expect(allowed.status).toBe(200);
    const id = allowed.body.access.id as string;
    await ruleState(hawser, id, 'active');
    const route = `/v2/share-access-rules/${id}/metadata`;

    const updated = await hawser.request(
      'PUT',
      route,
      { metadata: { team: 'db' } },
      {
        token: MEMBER,
      },
    );
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({ metadata: { owner: 'ops', team: 'db' } });
    const unset = await hawser.request('DELETE', `${route}/owner`, undefined, { token: MEMBER });
    expect(unset.status).toBe(200);
    const shown = await hawser.request('GET', `/v2/share-access-rules/${id}`, undefined, {
      token: MEMBER,
    });
    expect(shown.body.access).toMatchObject({ metadata: { team: 'db' }, state: 'active' });

    for (const [method, path, body, token, status] of [
      ['DELETE', `${route}/owner`, undefined, MEMBER, 404],
      ['PUT', route, { metadata: { k: 7 } }, MEMBER, 400],
      ['PUT', route, { meta: {} }, MEMBER, 400],
      ['PUT', route, { metadata: { k: 'v' } }, OTHER, 404],
    ] as const) {
      const refused = await hawser.request(method, path, body, { token });
      expect(refused.status).toBe(status);
    }
    const old = await hawser.request(
      'PUT',
      route,
      { metadata: { k: 'v' } },
      {
        token: MEMBER,
        version: '2.44',
      },
    );
    expect(old.status).toBe(404);
    const after = await hawser.request('GET', `/v2/share-access-rules/${id}`, undefined, {
      token: MEMBER,
    });
    expect(after.body.access.metadata).toEqual({ team: 'db' });
  });

  it('refuses invalid values, levels, duplicates and unknown shares with 400', async () => {
    const shareId = await availableShare(hawser);
    for (const access of [
      { access_type: 'ip', access_to: '10.0.0.256' },
      { access_type: 'ip', access_to: 'fd00::1' },
      { access_type: 'user', access_to: 'ab' },
      { access_type: 'user', access_to: 'a:b;c' },
      { access_type: 'cert', access_to: 'x'.repeat(65) },
      { access_type: 'cephx', access_to: 'client.alice' },
      { access_type: 'token', access_to: 'x' },
      { access_type: 'ip', access_to: '10.0.0.1', access_level: 'rx' },
    ]) {
      const refused = await allow(hawser, shareId, access, { version: '2.37' });
      expect([access, refused.status]).toEqual([access, 400]);
    }
    expect((await allow(hawser, shareId, { access_type: 'ip', access_to: 'fd00::1' })).status).toBe(
      200,
    );
    const first = await allow(hawser, shareId, { access_type: 'user', access_to: 'alice' });
    expect(first.status).toBe(200);
    const duplicate = await allow(hawser, shareId, { access_type: 'user', access_to: 'alice' });
    expect(duplicate.status).toBe(400);

    const noShare = await hawser.request('GET', '/v2/share-access-rules', undefined, {
      token: MEMBER,
    });
    expect(noShare.status).toBe(400);
    expect(noShare.body.badRequest.message).toBe("The field 'share_id' has to be specified.");
    const unknownId = `${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`;
    const unknownShare = await hawser.request(
      'GET',
      `/v2/share-access-rules?share_id=${unknownId}`,
      undefined,
      { token: MEMBER },
    );
    expect(unknownShare.status).toBe(400);
    expect(unknownShare.body.badRequest.message).toBe(`Share ${unknownId} not found.`);
    const othersRule = await hawser.request(
      'GET',
      `/v2/share-access-rules/${first.body.access.id}`,
      undefined,
      { token: OTHER },
    );
    expect(othersRule.status).toBe(404);
  });

  it('refuses access changes while an instance is in error (400)', async () => {
    const shareId = await availableShare(hawser);
    await hawser.request('POST', `/v2/shares/${shareId}/action`, {
      reset_status: { status: 'error' },
    });
    expect(
      (await allow(hawser, shareId, { access_type: 'ip', access_to: '10.1.1.1' })).status,
    ).toBe(400);
  });

  it('extends and shrinks through the node; refuses sizes and statuses out of range', async () => {
    const shareId = await availableShare(hawser, 2);
    const action = (body: unknown) =>
      hawser.request('POST', `/v2/shares/${shareId}/action`, body, { token: MEMBER });

    expect((await action({ extend: { new_size: 2 } })).status).toBe(400);
    expect((await action({ extend: { new_size: 'big' } })).status).toBe(400);
    expect((await action({ shrink: { new_size: 0 } })).status).toBe(400);
    expect((await action({ shrink: { new_size: 3 } })).status).toBe(400);

    expect((await action({ extend: { new_size: 4 } })).status).toBe(202);
    const extended = await shareWith(hawser, shareId, (s) => s.size === 4);
    expect(extended.status).toBe('available');

    expect((await action({ shrink: { new_size: 3 } })).status).toBe(202);
    const shrunk = await shareWith(hawser, shareId, (s) => s.size === 3);
    expect(shrunk.status).toBe('available');

    await hawser.request('POST', `/v2/shares/${shareId}/action`, {
      reset_status: { status: 'error' },
    });
    expect((await action({ extend: { new_size: 5 } })).status).toBe(400);
    expect(
      (
        await hawser.request(
          'POST',
          `/v2/shares/${shareId}/action`,
          { extend: { new_size: 5 } },
          { token: OTHER },
        )
      ).status,
    ).toBe(404);
  });
});

describe('snapshots and access rules on the local driver (real directories)', () => {
  let hawser: HawserTestServer;

  beforeAll(async () => {
    hawser = await startHawser({ backends: (dir) => sampleBackends(dir) });
    await setUp(hawser);
  });
  afterAll(() => hawser.close());

  it('takes a snapshot that is a real copy on disk and writes an allowed rule to the exports file', async () => {
    const shareId = await availableShare(hawser);
    const host = (await hawser.request('GET', `/v2/shares/${shareId}`)).body.share.host as string;
    const [backend, pool] = host.split('#') as [string, string];
    const sharesDir = path.join(hawser.dataDir, 'pools', backend, pool, 'shares');
    const [instanceDir] = fs.readdirSync(sharesDir);
    const shareDir = path.join(sharesDir, instanceDir as string);
    fs.writeFileSync(path.join(shareDir, 'data.txt'), 'before the snapshot');

    const created = await hawser.request(
      'POST',
      '/v2/snapshots',
      { snapshot: { share_id: shareId, name: 'on-disk' } },
      { token: MEMBER },
    );
    expect(created.status).toBe(202);
    const snapshot = await eventually(
      async () => {
        const show = await hawser.request('GET', `/v2/snapshots/${created.body.snapshot.id}`);
        return show.body.snapshot?.status === 'available' ? show.body.snapshot : undefined;
      },
      10_000,
      'local snapshot to be available',
    );
    const snapshotDir = (snapshot.provider_location as string).replace(/^[a-z]+:/, '');
    fs.writeFileSync(path.join(shareDir, 'data.txt'), 'after the snapshot');
    expect(fs.readFileSync(path.join(snapshotDir, 'data.txt'), 'utf8')).toBe('before the snapshot');

    const allowed = await allow(hawser, shareId, { access_type: 'ip', access_to: '192.0.2.0/24' });
    expect(allowed.status).toBe(200);
    await ruleState(hawser, allowed.body.access.id, 'active');
    const exportsFile = fs.readFileSync(
      path.join(hawser.dataDir, 'pools', backend, 'exports'),
      'utf8',
    );
    expect(exportsFile).toContain(`${shareDir} 192.0.2.0/24(rw,sync,no_subtree_check)`);
  });
});

describe('access rules on a slow back end', () => {
  let hawser: HawserTestServer;
  beforeAll(async () => {
    hawser = await startHawser({ backends: () => simulatedBackends({ latencyMs: 300 }) });
    await setUp(hawser);
  });
  afterAll(() => hawser.close());

  it('shows the share syncing while the driver applies a rule, then active', async () => {
    const id = await availableShare(hawser);
    const allowed = await hawser.request(
      'POST',
      `/v2/shares/${id}/action`,
      { allow_access: { access_type: 'ip', access_to: '10.0.0.0/24', access_level: 'rw' } },
      { token: MEMBER },
    );
    expect(allowed.status).toBe(200);
    const during = await hawser.request('GET', `/v2/shares/${id}`, undefined, {
      token: MEMBER,
    });
    expect(during.body.share.access_rules_status).toBe('syncing');
    const legacy = await hawser.request('GET', `/v2/shares/${id}`, undefined, {
      token: MEMBER,
      version: '2.20',
    });
    expect(legacy.body.share.access_rules_status).toBe('out_of_sync');
    await eventually(
      async () => {
        const after = await hawser.request('GET', `/v2/shares/${id}`, undefined, {
          token: MEMBER,
        });
        return after.body.share.access_rules_status === 'active' ? after : undefined;
      },
      5_000,
      'the rule to be applied',
    );
  });
});
