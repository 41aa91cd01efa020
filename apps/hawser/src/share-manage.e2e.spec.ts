import fs from 'node:fs';
import path from 'node:path';
import { fromSnapshotBackends } from './test-support/from-snapshot-backends.js';
import {
  eventually,
  startHawser,
  type HawserTestServer,
} from './test-support/hawser-test-server.js';

const PROJECT = '11111111111111111111111111111111';
const MEMBER = 'alice:22222222222222222222222222222222:member,reader';

/** The admin's manage and unmanage requests, and waits on what they lead to. */
const manageWorld = (hawser: HawserTestServer) => {
  const request = (
    method: string,
    route: string,
    body?: unknown,
    version = '2.49',
    token?: string,
  ) => hawser.request(method, route, body, { version, ...(token && { token }) });
  return {
    request,
    manage: (share: Record<string, unknown>, version = '2.49', token?: string) =>
      request('POST', '/v2/shares/manage', { share }, version, token),
    unmanage: (id: string, version = '2.49') =>
      request('POST', `/v2/shares/${id}/action`, { unmanage: null }, version),
    shareOnceSettled: (id: string, status: string) =>
      eventually(
        async () => {
          const show = await request('GET', `/v2/shares/${id}`);
          return show.body.share?.status === status ? show.body.share : undefined;
        },
        10_000,
        `share ${id} to be ${status}`,
      ),
    gone: (id: string) =>
      eventually(
        async () => ((await request('GET', `/v2/shares/${id}`)).status === 404 ? true : undefined),
        10_000,
        `share ${id} to be gone`,
      ),
    quotaInUse: async () => {
      const quota = await request('GET', `/v2/quota-sets/${PROJECT}/detail`);
      return {
        shares: quota.body.quota_set.shares.in_use as number,
        gigabytes: quota.body.quota_set.gigabytes.in_use as number,
      };
    },
  };
};

describe('manage and unmanage over HTTP (simulated driver, DHSS=False)', () => {
  let hawser: HawserTestServer;
  let world: ReturnType<typeof manageWorld>;

  beforeAll(async () => {
    hawser = await startHawser();
    world = manageWorld(hawser);
    for (const [name, dhss] of [
      ['default', 'false'],
      ['with-servers', 'true'],
    ] as const) {
      const created = await hawser.request('POST', '/v2/types', {
        share_type: {
          name,
          extra_specs: { driver_handles_share_servers: dhss, snapshot_support: 'true' },
        },
      });
      expect(created.status).toBe(200);
    }
  });
  afterAll(() => hawser.close());

  const valid = {
    service_host: 'sim@a1#fast',
    protocol: 'nfs',
    export_path: 'sim@a1:/legacy/one',
    name: 'adopted',
    share_type: 'default',
    driver_options: { size: '3' },
  };

  it('refuses bad requests as Manila does, creating nothing', async () => {
    const cases: [unknown, number, RegExp][] = [
      [undefined, 422, /Share entity not found/],
      [{ ...valid, export_path: undefined }, 422, /Required parameter export_path not found/],
      [{ ...valid, protocol: '' }, 422, /Required parameter protocol is empty/],
      [{ ...valid, export_path: { where: 'x' } }, 422, /dictionary with a 'path' item/],
      [{ ...valid, service_host: 'sim@a1' }, 400, /should contain pool/],
      [{ ...valid, service_host: 'nowhere@x#p' }, 404, /Service nowhere@x could not be found/],
      [{ ...valid, share_type: 'nope' }, 404, /could not be found/],
      [{ ...valid, share_type: 'with-servers' }, 400, /Share Server ID parameter is required/],
      [{ ...valid, share_server_id: 'srv' }, 400, /Share Server ID parameter is not expected/],
    ];
    for (const [share, status, message] of cases) {
      const answer =
        share === undefined
          ? await world.request('POST', '/v2/shares/manage', { nope: {} })
          : await world.manage(share as Record<string, unknown>);
      expect({ share, status: answer.status }).toEqual({ share, status });
      const fault = Object.values(answer.body as Record<string, { message: string }>)[0];
      expect(fault?.message).toMatch(message);
    }
    expect((await world.manage(valid, '2.6')).status).toBe(404);
    expect((await world.manage(valid, '2.49', MEMBER)).status).toBe(403);
    const list = await world.request('GET', '/v2/shares/detail');
    expect(list.body.shares).toEqual([]);
    expect(await world.quotaInUse()).toEqual({ shares: 0, gigabytes: 0 });
  });

  it('manages a share (manage_starting, then available with the size the driver reports, counted), refuses the same path twice, and unmanages it (gone, released)', async () => {
    const answer = await world.manage({ ...valid, is_public: true }, '2.8');
    expect(answer.status).toBe(200);
    expect(answer.body.share).toMatchObject({
      name: 'adopted',
      status: 'manage_starting',
      share_proto: 'NFS',
      host: 'sim@a1#fast',
      is_public: true,
      share_type_name: 'default',
    });
    const id = answer.body.share.id as string;
    const available = await world.shareOnceSettled(id, 'available');
    expect(available).toMatchObject({ size: 3 });
    await eventually(async () => {
      const used = await world.quotaInUse();
      return used.shares === 1 && used.gigabytes === 3 ? true : undefined;
    });

    const twice = await world.manage(valid);
    expect(twice.status).toBe(409);
    expect(twice.body.conflictingRequest.message).toMatch(/already exists with the export path/);

    const snapshot = await world.request('POST', '/v2/snapshots', { snapshot: { share_id: id } });
    expect(snapshot.status).toBe(202);
    const snapshotId = snapshot.body.snapshot.id as string;
    await eventually(async () => {
      const show = await world.request('GET', `/v2/snapshots/${snapshotId}`);
      return show.body.snapshot.status === 'available' ? true : undefined;
    });
    const withSnapshot = await world.unmanage(id);
    expect(withSnapshot.status).toBe(403);
    expect(withSnapshot.body.forbidden.message).toMatch(/'1' dependent snapshot\(s\)/);
    expect((await world.unmanage(id, '2.6')).status).toBe(404);
    await world.request('DELETE', `/v2/snapshots/${snapshotId}`);
    await eventually(async () =>
      (await world.request('GET', `/v2/snapshots/${snapshotId}`)).status === 404 ? true : undefined,
    );

    expect((await world.unmanage(id)).status).toBe(202);
    await world.gone(id);
    await eventually(async () => {
      const used = await world.quotaInUse();
      return used.shares === 0 && used.gigabytes === 0 ? true : undefined;
    });
  });
});

describe('manage and unmanage on the local driver: a directory adopted, and let go with its data', () => {
  let hawser: HawserTestServer;
  let world: ReturnType<typeof manageWorld>;

  beforeAll(async () => {
    hawser = await startHawser({ backends: (dataDir) => fromSnapshotBackends(dataDir) });
    world = manageWorld(hawser);
    const created = await hawser.request('POST', '/v2/types', {
      share_type: { name: 'default', extra_specs: { driver_handles_share_servers: 'false' } },
    });
    expect(created.status).toBe(200);
  });
  afterAll(() => hawser.close());

  it('moves the directory into the share, reports its size, serves it, and puts it back on unmanage', async () => {
    const legacy = path.join(hawser.dataDir, 'pools', 'node-az1@alpha', 'pool1', 'legacy');
    fs.mkdirSync(legacy, { recursive: true });
    fs.writeFileSync(path.join(legacy, 'data.txt'), 'kept across manage and unmanage');

    const answer = await world.manage({
      service_host: 'node-az1@alpha#pool1',
      protocol: 'NFS',
      export_path: `127.0.0.1:${legacy}`,
      share_type: 'default',
    });
    expect(answer.status).toBe(200);
    const id = answer.body.share.id as string;
    expect(await world.shareOnceSettled(id, 'available')).toMatchObject({ size: 1 });
    const locations = await world.request('GET', `/v2/shares/${id}/export_locations`);
    const dir = (
      locations.body.export_locations as { path: string; is_admin_only: boolean }[]
    ).find((l) => l.is_admin_only)?.path as string;
    expect(fs.readFileSync(path.join(dir, 'data.txt'), 'utf8')).toBe(
      'kept across manage and unmanage',
    );
    expect(fs.existsSync(legacy)).toBe(false);

    const outside = await world.manage({
      service_host: 'node-az1@alpha#pool1',
      protocol: 'NFS',
      export_path: '/etc',
      share_type: 'default',
    });
    const refusedId = outside.body.share.id as string;
    expect(await world.shareOnceSettled(refusedId, 'manage_error')).toMatchObject({ size: 0 });

    expect((await world.unmanage(id)).status).toBe(202);
    await world.gone(id);
    expect(fs.readFileSync(path.join(legacy, 'data.txt'), 'utf8')).toBe(
      'kept across manage and unmanage',
    );
  });
});
