import fs from 'node:fs';
import path from 'node:path';
import { availableDefaultShare, createDefaultType } from './test-support/default-share-type.js';
import { fromSnapshotBackends } from './test-support/from-snapshot-backends.js';
import {
  eventually,
  startHawser,
  type HawserTestServer,
} from './test-support/hawser-test-server.js';

const MEMBER = 'alice:22222222222222222222222222222222:member,reader';

/** The admin's snapshot manage and unmanage requests, and waits on what they lead to. */
const snapshotManageWorld = (hawser: HawserTestServer) => {
  const request = (
    method: string,
    route: string,
    body?: unknown,
    version = '2.73',
    token?: string,
  ) => hawser.request(method, route, body, { version, ...(token && { token }) });
  const snapshotOnceSettled = (id: string, status: string) =>
    eventually(
      async () => {
        const show = await request('GET', `/v2/snapshots/${id}`);
        return show.body.snapshot?.status === status ? show.body.snapshot : undefined;
      },
      10_000,
      `snapshot ${id} to be ${status}`,
    );
  return {
    request,
    manage: (snapshot: Record<string, unknown>, version = '2.73', token?: string) =>
      request('POST', '/v2/snapshots/manage', { snapshot }, version, token),
    unmanage: (id: string, version = '2.73') =>
      request('POST', `/v2/snapshots/${id}/action`, { unmanage: null }, version),
    snapshotOnceSettled,
    gone: (id: string) =>
      eventually(
        async () =>
          (await request('GET', `/v2/snapshots/${id}`)).status === 404 ? true : undefined,
        10_000,
        `snapshot ${id} to be gone`,
      ),
    availableShare: (size = 1) => availableDefaultShare((m, r, b) => request(m, r, b), { size }),
    snapshotQuotaInUse: async (project: string) => {
      const quota = await request('GET', `/v2/quota-sets/${project}/detail`);
      return {
        snapshots: quota.body.quota_set.snapshots.in_use as number,
        snapshot_gigabytes: quota.body.quota_set.snapshot_gigabytes.in_use as number,
      };
    },
  };
};

describe('snapshot manage and unmanage over HTTP (simulated driver, DHSS=False)', () => {
  let hawser: HawserTestServer;
  let world: ReturnType<typeof snapshotManageWorld>;
  let shareId: string;

  beforeAll(async () => {
    hawser = await startHawser();
    world = snapshotManageWorld(hawser);
    await createDefaultType(hawser, { snapshot_support: 'true' });
    shareId = await world.availableShare(2);
  });
  afterAll(() => hawser.close());

  it('refuses bad requests as Manila does, creating nothing', async () => {
    const valid = { share_id: shareId, provider_location: 'legacy-snap' };
    const cases: [unknown, number, RegExp][] = [
      [undefined, 422, /Snapshot entity not found in request body/],
      [{ provider_location: 'x' }, 422, /Required parameter share_id not found/],
      [{ ...valid, provider_location: '' }, 422, /Required parameter provider_location is empty/],
      [{ ...valid, share_id: 'f'.repeat(32) }, 404, /could not be found/],
      [{ ...valid, driver_options: 'size=1' }, 400, /driver_options must be a dictionary/],
      [{ ...valid, metadata: { '': 'v' } }, 400, /^Metadata property key is blank\.$/],
    ];
    for (const [snapshot, status, message] of cases) {
      const answer =
        snapshot === undefined
          ? await world.request('POST', '/v2/snapshots/manage', { nope: {} })
          : await world.manage(snapshot as Record<string, unknown>);
      expect({ snapshot, status: answer.status }).toEqual({ snapshot, status });
      const fault = Object.values(answer.body as Record<string, { message: string }>)[0];
      expect(fault?.message).toMatch(message);
    }
    // Before 2.12 the route does not exist; a member is refused by the admin-only rule.
    expect((await world.manage(valid, '2.11')).status).toBe(404);
    expect((await world.manage(valid, '2.73', MEMBER)).status).toBe(403);
    const listed = await world.request('GET', '/v2/snapshots/detail?all_tenants=1');
    expect(listed.body.snapshots).toEqual([]);
  });

  it('manages a snapshot (manage_starting, then available with the reported size, counted), refuses the same provider location twice, and unmanages it (gone, released)', async () => {
    const answer = await world.manage({
      share_id: shareId,
      provider_location: 'legacy-snap',
      name: 'adopted',
      description: 'from before',
      metadata: { origin: 'legacy' },
      driver_options: { size: '3' },
    });
    expect(answer.status).toBe(202);
    expect(answer.body.snapshot).toMatchObject({
      name: 'adopted',
      description: 'from before',
      status: 'manage_starting',
      share_id: shareId,
      share_size: 2,
      provider_location: 'legacy-snap',
      metadata: { origin: 'legacy' },
    });
    const id = answer.body.snapshot.id as string;
    const project = answer.body.snapshot.project_id as string;
    expect(await world.snapshotOnceSettled(id, 'available')).toMatchObject({ size: 3 });
    await eventually(async () => {
      const used = await world.snapshotQuotaInUse(project);
      return used.snapshots === 1 && used.snapshot_gigabytes === 3 ? true : undefined;
    });
    const instances = await world.request('GET', `/v2/snapshot-instances?snapshot_id=${id}`);
    expect(instances.body.snapshot_instances).toEqual([
      expect.objectContaining({ snapshot_id: id, status: 'available' }),
    ]);

    const twice = await world.manage({ share_id: shareId, provider_location: 'legacy-snap' });
    expect(twice.status).toBe(409);
    expect(twice.body.conflictingRequest.message).toBe(
      `A share snapshot ${id} is already managed for provider location legacy-snap.`,
    );

    expect((await world.unmanage(id, '2.11')).status).toBe(404);
    const asMember = await hawser.request(
      'POST',
      `/v2/snapshots/${id}/action`,
      { unmanage: null },
      { version: '2.73', token: MEMBER },
    );
    expect(asMember.status).toBe(403);
    expect((await world.unmanage(id, '2.12')).status).toBe(202);
    await world.gone(id);
    await eventually(async () => {
      const used = await world.snapshotQuotaInUse(project);
      return used.snapshots === 0 && used.snapshot_gigabytes === 0 ? true : undefined;
    });
  });

  it("takes the share's size when the driver reports none", async () => {
    const answer = await world.manage({ share_id: shareId, provider_location: 'sized-by-share' });
    const id = answer.body.snapshot.id as string;
    expect(await world.snapshotOnceSettled(id, 'available')).toMatchObject({ size: 2 });
    expect((await world.unmanage(id)).status).toBe(202);
    await world.gone(id);
  });
});

describe('snapshot manage on the local driver: a directory adopted as a snapshot, and let go with its data', () => {
  let hawser: HawserTestServer;
  let world: ReturnType<typeof snapshotManageWorld>;

  beforeAll(async () => {
    hawser = await startHawser({ backends: (dataDir) => fromSnapshotBackends(dataDir) });
    world = snapshotManageWorld(hawser);
    await createDefaultType(hawser, {
      snapshot_support: 'true',
      create_share_from_snapshot_support: 'true',
    });
  });
  afterAll(() => hawser.close());

  it('moves the directory into the snapshot, reports its size, a new share holds its data, and unmanage puts it back', async () => {
    const shareId = await world.availableShare(1);
    const host = (await world.request('GET', `/v2/shares/${shareId}`)).body.share.host as string;
    const [backend, pool] = host.split('#') as [string, string];
    const legacy = path.join(hawser.dataDir, 'pools', backend, pool, 'old-snapshot');
    fs.mkdirSync(legacy, { recursive: true });
    fs.writeFileSync(path.join(legacy, 'data.txt'), 'kept across snapshot manage and unmanage');

    const answer = await world.manage({ share_id: shareId, provider_location: legacy });
    expect(answer.status).toBe(202);
    const id = answer.body.snapshot.id as string;
    const available = await world.snapshotOnceSettled(id, 'available');
    expect(available).toMatchObject({ size: 1 });
    expect(available.provider_location).toMatch(/^(copy|subvolume):.*snapshots/);
    expect(fs.existsSync(legacy)).toBe(false);

    const fromSnapshot = await world.request('POST', '/v2/shares', {
      share: { share_proto: 'NFS', size: 1, share_type: 'default', snapshot_id: id },
    });
    expect(fromSnapshot.status).toBe(200);
    const copyId = fromSnapshot.body.share.id as string;
    const copy = await eventually(
      async () => {
        const show = await world.request('GET', `/v2/shares/${copyId}`);
        return show.body.share?.status === 'available' ? show.body.share : undefined;
      },
      20_000,
      'the share made from the managed snapshot',
    );
    const locations = await world.request('GET', `/v2/shares/${copy.id}/export_locations`);
    const dir = (
      locations.body.export_locations as { path: string; is_admin_only: boolean }[]
    ).find((l) => l.is_admin_only)?.path as string;
    expect(fs.readFileSync(path.join(dir, 'data.txt'), 'utf8')).toBe(
      'kept across snapshot manage and unmanage',
    );

    const outside = await world.manage({ share_id: shareId, provider_location: '/etc' });
    const refusedId = outside.body.snapshot.id as string;
    expect(await world.snapshotOnceSettled(refusedId, 'manage_error')).toMatchObject({ size: 1 });

    expect((await world.unmanage(id)).status).toBe(202);
    await world.gone(id);
    expect(fs.readFileSync(path.join(legacy, 'data.txt'), 'utf8')).toBe(
      'kept across snapshot manage and unmanage',
    );
  });
});
