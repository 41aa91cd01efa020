import fs from 'node:fs';
import path from 'node:path';
import { fromSnapshotBackends } from './test-support/from-snapshot-backends.js';
import {
  eventually,
  startHawser,
  type HawserTestServer,
} from './test-support/hawser-test-server.js';
import { simulatedBackends } from './test-support/simulated-backends.js';

const MEMBER = 'alice:22222222222222222222222222222222:member,reader';
const PROJECT = '22222222222222222222222222222222';
const OTHER = 'bob:33333333333333333333333333333333:member,reader';
const V = '2.27';

/** A type with snapshots and revert, one with snapshots only; shares and snapshots of MEMBER. */
const revertWorld = (hawser: HawserTestServer) => {
  const request = (method: string, route: string, body?: unknown, token = MEMBER, version = V) =>
    hawser.request(method, route, body, { token, version });
  const waitFor = (route: string, key: string, status: string) =>
    eventually(
      async () => {
        const show = await request('GET', route, undefined, undefined, '2.72');
        return show.body[key]?.status === status ? show.body[key] : undefined;
      },
      10_000,
      `${route} to be ${status}`,
    );
  return {
    request,
    waitFor,
    async createTypes() {
      for (const [name, specs] of [
        ['revertible', { snapshot_support: 'true', revert_to_snapshot_support: 'true' }],
        ['snappy', { snapshot_support: 'true' }],
      ] as const) {
        const created = await hawser.request('POST', '/v2/types', {
          share_type: { name, extra_specs: { driver_handles_share_servers: 'false', ...specs } },
        });
        expect(created.status).toBe(200);
      }
    },
    async availableShare(shareType = 'revertible', size = 1) {
      const created = await request('POST', '/v2/shares', {
        share: { share_proto: 'NFS', size, share_type: shareType },
      });
      expect(created.status).toBe(200);
      const id = created.body.share.id as string;
      await waitFor(`/v2/shares/${id}`, 'share', 'available');
      return id;
    },
    async availableSnapshot(shareId: string) {
      const created = await request('POST', '/v2/snapshots', { snapshot: { share_id: shareId } });
      expect(created.status).toBe(202);
      const id = created.body.snapshot.id as string;
      await waitFor(`/v2/snapshots/${id}`, 'snapshot', 'available');
      return id;
    },
    revert: (shareId: string, body: unknown, token = MEMBER, version = V) =>
      request('POST', `/v2/shares/${shareId}/action`, body, token, version),
  };
};

describe('revert to snapshot over HTTP (2.27, simulated driver)', () => {
  let hawser: HawserTestServer;
  let world: ReturnType<typeof revertWorld>;

  beforeAll(async () => {
    hawser = await startHawser({
      // The first revert the back ends see fails: reverting_error, the snapshot available.
      backends: () =>
        simulatedBackends({ failures: [{ operation: 'revertToSnapshot', nthCall: 1 }] }),
    });
    world = revertWorld(hawser);
    await world.createTypes();
  });
  afterAll(() => hawser.close());

  it('answers 404 before 2.27 and 202 from 2.27; the share is reverting, then available with the snapshot size', async () => {
    const shareId = await world.availableShare();
    const snapshotId = await world.availableSnapshot(shareId);
    // A driver failure first (the injected one): reverting_error, and the snapshot available.
    const failing = await world.revert(shareId, { revert: { snapshot_id: snapshotId } });
    expect(failing.status).toBe(202);
    await world.waitFor(`/v2/shares/${shareId}`, 'share', 'reverting_error');
    await world.waitFor(`/v2/snapshots/${snapshotId}`, 'snapshot', 'available');
    const reset = await hawser.request('POST', `/v2/shares/${shareId}/action`, {
      reset_status: { status: 'available' },
    });
    expect(reset.status).toBe(202);

    const before = await world.revert(
      shareId,
      { revert: { snapshot_id: snapshotId } },
      MEMBER,
      '2.26',
    );
    expect(before.status).toBe(404);

    const extended = await world.request('POST', `/v2/shares/${shareId}/action`, {
      extend: { new_size: 2 },
    });
    expect(extended.status).toBe(202);
    await eventually(async () => {
      const show = await world.request('GET', `/v2/shares/${shareId}`);
      return show.body.share.size === 2 && show.body.share.status === 'available'
        ? true
        : undefined;
    });

    const accepted = await world.revert(shareId, { revert: { snapshot_id: snapshotId } });
    expect(accepted.status).toBe(202);
    const reverted = await world.waitFor(`/v2/shares/${shareId}`, 'share', 'available');
    expect(reverted).toMatchObject({ size: 1, revert_to_snapshot_support: true });
    await world.waitFor(`/v2/snapshots/${snapshotId}`, 'snapshot', 'available');
    // The extend counted 2 GiB; the revert to the 1 GiB snapshot counts 1 again.
    await eventually(
      async () => {
        const quota = await hawser.request('GET', `/v2/quota-sets/${PROJECT}/detail`);
        return quota.body.quota_set.gigabytes.in_use === 1 ? true : undefined;
      },
      5_000,
      'the quota to count the reverted size',
    );
  });

  it('refuses as Manila does, changing nothing: 400 for a bad body, an unknown or foreign snapshot, a type without the capability; 409 for an older snapshot; 404 for a share of another project', async () => {
    const shareId = await world.availableShare();
    const first = await world.availableSnapshot(shareId);
    const second = await world.availableSnapshot(shareId);
    const otherShare = await world.availableShare();
    const otherSnapshot = await world.availableSnapshot(otherShare);
    const plainShare = await world.availableShare('snappy');
    const plainSnapshot = await world.availableSnapshot(plainShare);

    const cases: [string, unknown, number, RegExp][] = [
      [shareId, { revert: null }, 400, /Revert entity not found/],
      [shareId, { revert: {} }, 400, /Required parameter snapshot_id not found/],
      [shareId, { revert: { snapshot_id: '' } }, 400, /Required parameter snapshot_id is empty/],
      [shareId, { revert: { snapshot_id: 'nope' } }, 400, /Snapshot nope could not be found/],
      [shareId, { revert: { snapshot_id: otherSnapshot } }, 400, /is not associated with share/],
      [
        plainShare,
        { revert: { snapshot_id: plainSnapshot } },
        400,
        /does not have that capability/,
      ],
      [
        shareId,
        { revert: { snapshot_id: first } },
        409,
        new RegExp(`latest snapshot is ${second}`),
      ],
    ];
    for (const [share, body, status, message] of cases) {
      const answer = await world.revert(share, body);
      expect({ body, status: answer.status }).toEqual({ body, status });
      const fault = Object.values(answer.body as Record<string, { message: string }>)[0];
      expect(fault?.message).toMatch(message);
    }
    const foreign = await world.revert(shareId, { revert: { snapshot_id: second } }, OTHER);
    expect(foreign.status).toBe(404);

    const show = await world.request('GET', `/v2/shares/${shareId}`);
    expect(show.body.share.status).toBe('available');
    const snapshots = await world.request('GET', `/v2/snapshots/detail?share_id=${shareId}`);
    expect(snapshots.body.snapshots.map((s: { status: string }) => s.status)).toEqual([
      'available',
      'available',
    ]);
  });

  it('refuses a share that is not available (409)', async () => {
    const shareId = await world.availableShare();
    const snapshotId = await world.availableSnapshot(shareId);
    await hawser.request('POST', `/v2/shares/${shareId}/action`, {
      reset_status: { status: 'error' },
    });
    const refused = await world.revert(shareId, { revert: { snapshot_id: snapshotId } });
    expect(refused.status).toBe(409);
    expect(refused.body.conflictingRequest.message).toMatch(
      /'error' state, but it must be in 'available'/,
    );
  });
});

describe("revert to snapshot on the local driver: the data is the snapshot's again", () => {
  let hawser: HawserTestServer;
  let world: ReturnType<typeof revertWorld>;

  beforeAll(async () => {
    hawser = await startHawser({ backends: (dataDir) => fromSnapshotBackends(dataDir) });
    world = revertWorld(hawser);
    await world.createTypes();
  });
  afterAll(() => hawser.close());

  it('removes what was written after the snapshot and restores what was changed', async () => {
    const shareId = await world.availableShare();
    const locations = await hawser.request('GET', `/v2/shares/${shareId}/export_locations`);
    const dir = (
      locations.body.export_locations as { path: string; is_admin_only: boolean }[]
    ).find((l) => l.is_admin_only)?.path as string;
    fs.writeFileSync(path.join(dir, 'kept.txt'), 'before the snapshot');
    const snapshotId = await world.availableSnapshot(shareId);
    fs.writeFileSync(path.join(dir, 'kept.txt'), 'changed after the snapshot, longer');
    fs.writeFileSync(path.join(dir, 'new.txt'), 'written after the snapshot');

    const accepted = await world.revert(shareId, { revert: { snapshot_id: snapshotId } });
    expect(accepted.status).toBe(202);
    await world.waitFor(`/v2/shares/${shareId}`, 'share', 'available');

    expect(fs.readdirSync(dir).sort()).toEqual(['kept.txt']);
    expect(fs.readFileSync(path.join(dir, 'kept.txt'), 'utf8')).toBe('before the snapshot');
  });
});
