import {
  eventually,
  startHawser,
  type HawserTestServer,
} from './test-support/hawser-test-server.js';
import {
  availableReadableShare,
  createReadableType,
  type ManilaCall,
} from './test-support/replicated-share.js';
import { simulatedBackends } from './test-support/simulated-backends.js';

const MEMBER = 'alice:22222222222222222222222222222222:member,reader';
const MEMBER_PROJECT = '22222222222222222222222222222222';
const OTHER = 'bob:33333333333333333333333333333333:member,reader';

/*
 * Share replication over HTTP (reference 3.7 and 5, seed 001) on the simulated driver: two
 * zones of one replication domain, replica states refreshed every second.
 */
describe('share replicas over HTTP (given a readable replicated share type)', () => {
  let hawser: HawserTestServer;
  let shareId: string;
  let firstId: string;
  let replicaId: string;

  const member = (method: string, route: string, body?: unknown, version = '2.72') =>
    hawser.request(method, route, body, { token: MEMBER, version });
  const admin = (method: string, route: string, body?: unknown) =>
    hawser.request(method, route, body);
  const replica = async (id: string) =>
    (await admin('GET', `/v2/share-replicas/${id}`)).body.share_replica;
  const waitForReplica = (
    id: string,
    check: (r: Record<string, unknown>) => boolean,
    what: string,
  ) =>
    eventually(
      async () => {
        const r = await replica(id);
        return r && check(r) ? r : undefined;
      },
      10_000,
      what,
    );
  const usage = async () => {
    const quota = await admin('GET', `/v2/quota-sets/${MEMBER_PROJECT}/detail`);
    const set = quota.body.quota_set;
    return {
      shares: set.shares.in_use,
      share_replicas: set.share_replicas.in_use,
      replica_gigabytes: set.replica_gigabytes.in_use,
    };
  };

  beforeAll(async () => {
    hawser = await startHawser({ env: { HAWSER_REPLICA_STATE_UPDATE_INTERVAL_S: '1' } });
    for (const [name, specs] of [
      ['readable', { replication_type: 'readable', snapshot_support: 'True' }],
      ['plain', {}],
    ] as const) {
      const created = await admin('POST', '/v2/types', {
        share_type: { name, extra_specs: { driver_handles_share_servers: 'false', ...specs } },
      });
      expect(created.status).toBe(200);
    }
    const created = await member('POST', '/v2/shares', {
      share: { share_proto: 'NFS', size: 2, share_type: 'readable', availability_zone: 'az-1' },
    });
    expect(created.status).toBe(200);
    shareId = created.body.share.id;
    await eventually(
      async () => {
        const share = (await member('GET', `/v2/shares/${shareId}`)).body.share;
        return share?.status === 'available' ? share : undefined;
      },
      10_000,
      'the share to be available',
    );
  });
  afterAll(() => hawser.close());

  it('lists the first instance of the share as its active replica', async () => {
    const listed = await member('GET', `/v2/share-replicas?share_id=${shareId}`);
    expect(listed.status).toBe(200);
    expect(listed.body.share_replicas).toEqual([
      { id: expect.any(String), share_id: shareId, status: 'available', replica_state: 'active' },
    ]);
    firstId = listed.body.share_replicas[0].id;
  });

  it('is experimental from 2.11 to 2.55: 404 without the header, served with it', async () => {
    expect((await member('GET', '/v2/share-replicas', undefined, '2.55')).status).toBe(404);
    expect((await member('GET', '/v2/share-replicas', undefined, '2.10')).status).toBe(404);
    const experimental = await hawser.request('GET', '/v2/share-replicas', undefined, {
      token: MEMBER,
      version: '2.11',
      headers: { 'X-OpenStack-Manila-API-Experimental': 'True' },
    });
    expect(experimental.status).toBe(200);
    expect(experimental.body.share_replicas).toHaveLength(1);
  });

  it('refuses a replica of a share whose type has no replication_type, and bad bodies', async () => {
    const plain = await member('POST', '/v2/shares', {
      share: { share_proto: 'NFS', size: 1, share_type: 'plain' },
    });
    const refused = await member('POST', '/v2/share-replicas', {
      share_replica: { share_id: plain.body.share.id },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.badRequest.message).toMatch(/Replication not supported/);
    expect((await member('POST', '/v2/share-replicas', {})).status).toBe(422);
    expect((await member('POST', '/v2/share-replicas', { share_replica: {} })).status).toBe(400);
    const missing = await member('POST', '/v2/share-replicas', {
      share_replica: { share_id: '00000000-0000-4000-8000-000000000000' },
    });
    expect(missing.status).toBe(404);
    const otherProject = await hawser.request(
      'POST',
      '/v2/share-replicas',
      { share_replica: { share_id: shareId } },
      { token: OTHER },
    );
    expect(otherProject.status).toBe(404);
    expect((await usage()).share_replicas).toBe(1);
  });

  it('refuses a replica in a zone its share type does not name (400)', async () => {
    const type = await admin('POST', '/v2/types', {
      share_type: {
        name: 'readable-in-az-1',
        extra_specs: {
          driver_handles_share_servers: 'false',
          replication_type: 'readable',
          availability_zones: 'az-1',
        },
      },
    });
    expect(type.status).toBe(200);
    const created = await admin('POST', '/v2/shares', {
      share: { share_proto: 'NFS', size: 1, share_type: 'readable-in-az-1' },
    });
    expect(created.status).toBe(200);
    const refused = await admin('POST', '/v2/share-replicas', {
      share_replica: { share_id: created.body.share.id, availability_zone: 'az-2' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.badRequest.message).toBe(
      'Share replica cannot be created in availability zone az-2: the share type allows only az-1.',
    );
    const replicas = await admin('GET', `/v2/share-replicas?share_id=${created.body.share.id}`);
    expect(replicas.body.share_replicas).toHaveLength(1);
  });

  it('creates a replica in az-2: creating, then available and in_sync on a pool of the domain', async () => {
    const created = await member('POST', '/v2/share-replicas', {
      share_replica: { share_id: shareId, availability_zone: 'az-2' },
    });
    expect(created.status).toBe(202);
    expect(created.body.share_replica).toMatchObject({
      share_id: shareId,
      status: 'creating',
      availability_zone: 'az-2',
      replica_state: null,
    });
    expect(created.body.share_replica.host).toBeUndefined();
    replicaId = created.body.share_replica.id;
    const ready = await waitForReplica(
      replicaId,
      (r) => r.status === 'available' && r.replica_state === 'in_sync',
      'the replica to be in_sync',
    );
    expect(ready).toMatchObject({ availability_zone: 'az-2', cast_rules_to_readonly: true });
    expect(ready.host).toMatch(/^sim@[ab]2#/);
    const share = (await member('GET', `/v2/shares/${shareId}`)).body.share;
    expect(share).toMatchObject({ has_replicas: true, replication_type: 'readable' });
    expect(await usage()).toEqual({ shares: 2, share_replicas: 2, replica_gigabytes: 4 });
  });

  it("lists a project's replicas newest first, by limit and offset, and refuses bad ones as Manila does", async () => {
    const all = await member('GET', '/v2/share-replicas/detail');
    expect(all.status).toBe(200);
    expect(all.body.share_replicas.map((r: { id: string }) => r.id)).toEqual([replicaId, firstId]);
    expect(all.body.share_replicas[0]).toMatchObject({ replica_state: 'in_sync' });
    const second = await member('GET', '/v2/share-replicas/detail?limit=1&offset=1');
    expect(second.body.share_replicas).toEqual([all.body.share_replicas[1]]);
    const first = await member('GET', '/v2/share-replicas?limit=1');
    expect(first.body.share_replicas).toEqual([
      { id: replicaId, share_id: shareId, status: 'available', replica_state: 'in_sync' },
    ]);
    // An admin's listing, every project's, keeps the same order.
    const everyProject = (await admin('GET', '/v2/share-replicas')).body.share_replicas as {
      id: string;
    }[];
    expect(
      everyProject.map((r) => r.id).filter((id) => id === firstId || id === replicaId),
    ).toEqual([replicaId, firstId]);
    expect((await member('GET', '/v2/share-replicas?offset=5')).body.share_replicas).toEqual([]);
    const other = await hawser.request('GET', '/v2/share-replicas/detail', undefined, {
      token: OTHER,
      version: '2.72',
    });
    expect(other.body.share_replicas).toEqual([]);
    expect((await member('GET', '/v2/share-replicas?limit=0')).body.share_replicas).toHaveLength(2);
    const bad = await member('GET', '/v2/share-replicas?limit=-1');
    expect(bad.status).toBe(400);
    expect(bad.body.badRequest.message).toBe('limit param must be positive');
    const badOffset = await member('GET', '/v2/share-replicas?offset=first');
    expect(badOffset.body.badRequest.message).toBe('offset param must be an integer');
  });

  it('shows replica export locations with their replica_state (2.47+)', async () => {
    const locations = await admin('GET', `/v2/share-replicas/${replicaId}/export-locations`);
    expect(locations.status).toBe(200);
    expect(locations.body.export_locations.length).toBeGreaterThan(0);
    expect(locations.body.export_locations[0]).toMatchObject({
      replica_state: 'in_sync',
      availability_zone: 'az-2',
      share_instance_id: replicaId,
    });
    const one = await admin(
      'GET',
      `/v2/share-replicas/${replicaId}/export-locations/${locations.body.export_locations[0].id}`,
    );
    expect(one.body.export_location).toMatchObject({
      path: locations.body.export_locations[0].path,
    });
  });

  it('takes a snapshot on every replica: available once it exists on both', async () => {
    const created = await member('POST', '/v2/snapshots', { snapshot: { share_id: shareId } });
    expect(created.status).toBe(202);
    const snapshotId = created.body.snapshot.id;
    await eventually(
      async () => {
        const s = (await member('GET', `/v2/snapshots/${snapshotId}`)).body.snapshot;
        return s?.status === 'available' ? s : undefined;
      },
      10_000,
      'the snapshot to be available',
    );
    expect((await member('DELETE', `/v2/snapshots/${snapshotId}`)).status).toBe(202);
    await eventually(
      async () =>
        (await member('GET', `/v2/snapshots/${snapshotId}`)).status === 404 ? true : undefined,
      10_000,
      'the snapshot to be gone',
    );
  });

  it('refuses to delete the share while it has replicas (409)', async () => {
    expect((await member('DELETE', `/v2/shares/${shareId}`)).status).toBe(409);
  });

  it('promotes the in_sync replica through replication_change; the old active is in_sync', async () => {
    const promoted = await member('POST', `/v2/share-replicas/${replicaId}/action`, {
      promote: null,
    });
    expect(promoted.status).toBe(202);
    expect(promoted.body.share_replica.status).toBe('replication_change');
    await waitForReplica(
      replicaId,
      (r) => r.status === 'available' && r.replica_state === 'active',
      'the replica to be active',
    );
    expect(await replica(firstId)).toMatchObject({
      status: 'available',
      replica_state: 'in_sync',
      cast_rules_to_readonly: true,
    });
    expect(await replica(replicaId)).toMatchObject({ cast_rules_to_readonly: false });
    const share = (await member('GET', `/v2/shares/${shareId}`)).body.share;
    expect(share.availability_zone).toBe('az-2');
  });

  it('promoting the active replica is a 200 no-op', async () => {
    const again = await member('POST', `/v2/share-replicas/${replicaId}/action`, { promote: null });
    expect(again.status).toBe(200);
    expect(again.body).toBeUndefined();
  });

  it('refuses to delete the only active replica (400)', async () => {
    const refused = await member('DELETE', `/v2/share-replicas/${replicaId}`);
    expect(refused.status).toBe(400);
    const forced = await admin('POST', `/v2/share-replicas/${replicaId}/action`, {
      force_delete: null,
    });
    expect(forced.status).toBe(400);
  });

  it("admins reset replica_state; the periodic refresh brings the driver's state back", async () => {
    const forbidden = await member('POST', `/v2/share-replicas/${firstId}/action`, {
      reset_replica_state: { replica_state: 'out_of_sync' },
    });
    expect(forbidden.status).toBe(403);
    const bad = await admin('POST', `/v2/share-replicas/${firstId}/action`, {
      reset_replica_state: { replica_state: 'sideways' },
    });
    expect(bad.status).toBe(400);
    const reset = await admin('POST', `/v2/share-replicas/${firstId}/action`, {
      reset_replica_state: { replica_state: 'out_of_sync' },
    });
    expect(reset.status).toBe(202);
    await waitForReplica(firstId, (r) => r.replica_state === 'in_sync', 'the refresh to run');
  });

  it('admins reset status and resync', async () => {
    const reset = await admin('POST', `/v2/share-replicas/${firstId}/action`, {
      reset_status: { status: 'error' },
    });
    expect(reset.status).toBe(202);
    expect((await replica(firstId)).status).toBe('error');
    await admin('POST', `/v2/share-replicas/${firstId}/action`, {
      reset_status: { status: 'available' },
    });
    const resync = await admin('POST', `/v2/share-replicas/${firstId}/action`, { resync: null });
    expect(resync.status).toBe(202);
    const active = await admin('POST', `/v2/share-replicas/${replicaId}/action`, { resync: null });
    expect(active.status).toBe(200);
  });

  it('extends every replica; deleting the old active one gives back exactly what it counted', async () => {
    const extended = await member('POST', `/v2/shares/${shareId}/action`, {
      extend: { new_size: 3 },
    });
    expect(extended.status).toBe(202);
    await eventually(
      async () => {
        const share = (await member('GET', `/v2/shares/${shareId}`)).body.share;
        return share.size === 3 && share.status === 'available' ? share : undefined;
      },
      10_000,
      'the extend to finish',
    );
    expect(await usage()).toEqual({ shares: 2, share_replicas: 2, replica_gigabytes: 6 });
    expect((await member('DELETE', `/v2/share-replicas/${firstId}`)).status).toBe(202);
    await eventually(
      async () =>
        (await admin('GET', `/v2/share-replicas/${firstId}`)).status === 404 ? true : undefined,
      10_000,
      'the replica to be gone',
    );
    await eventually(
      async () => {
        const u = await usage();
        return u.share_replicas === 1 ? u : undefined;
      },
      10_000,
      'the replica quota to be released',
    );
    expect(await usage()).toEqual({ shares: 2, share_replicas: 1, replica_gigabytes: 3 });
  });

  it('force-deletes a replica and then deletes the share: nothing is left counted', async () => {
    const created = await member('POST', '/v2/share-replicas', {
      share_replica: { share_id: shareId },
    });
    expect(created.status).toBe(202);
    const id = created.body.share_replica.id;
    await waitForReplica(id, (r) => r.status === 'available', 'the replica to be available');
    const forced = await admin('POST', `/v2/share-replicas/${id}/action`, { force_delete: null });
    expect(forced.status).toBe(202);
    await eventually(
      async () =>
        (await admin('GET', `/v2/share-replicas/${id}`)).status === 404 ? true : undefined,
      10_000,
      'the replica to be gone',
    );
    expect((await member('DELETE', `/v2/shares/${shareId}`)).status).toBe(202);
    await eventually(
      async () => {
        const u = await usage();
        return u.shares === 1 ? u : undefined;
      },
      10_000,
      'the share to be released',
    );
    // The plain share of the refusal test is all that still counts.
    expect(await usage()).toEqual({ shares: 1, share_replicas: 0, replica_gigabytes: 0 });
  });
});

describe('replica placement honours the affinity hints of the share (reference 7.4)', () => {
  let hawser: HawserTestServer;

  beforeAll(async () => {
    hawser = await startHawser();
    await hawser.request('POST', '/v2/types', {
      share_type: {
        name: 'readable',
        extra_specs: { driver_handles_share_servers: 'false', replication_type: 'readable' },
      },
    });
  });
  afterAll(() => hawser.close());

  const availableShare = async (extra: Record<string, unknown> = {}) => {
    const created = await hawser.request('POST', '/v2/shares', {
      share: {
        share_proto: 'NFS',
        size: 1,
        share_type: 'readable',
        availability_zone: 'az-1',
        ...extra,
      },
    });
    expect(created.status).toBe(200);
    return eventually(
      async () => {
        const share = (await hawser.request('GET', `/v2/shares/${created.body.share.id}`)).body
          .share;
        return share?.status === 'available' ? share : undefined;
      },
      10_000,
      'the share to be available',
    );
  };

  it('a share tied by same_host to one in az-1 gets no replica in az-2: no valid host', async () => {
    const anchor = await availableShare();
    const tied = await availableShare({ scheduler_hints: { same_host: anchor.id } });
    expect(tied.host).toBe(anchor.host);
    const created = await hawser.request('POST', '/v2/share-replicas', {
      share_replica: { share_id: tied.id, availability_zone: 'az-2' },
    });
    expect(created.status).toBe(202);
    const failed = await eventually(
      async () => {
        const r = (
          await hawser.request('GET', `/v2/share-replicas/${created.body.share_replica.id}`)
        ).body.share_replica;
        return r?.status === 'error' ? r : undefined;
      },
      10_000,
      'the replica to fail scheduling',
    );
    expect(failed.replica_state).toBe('error');
    // Without the hint the same request is placed.
    const free = await availableShare();
    const placed = await hawser.request('POST', '/v2/share-replicas', {
      share_replica: { share_id: free.id, availability_zone: 'az-2' },
    });
    await eventually(
      async () => {
        const r = (
          await hawser.request('GET', `/v2/share-replicas/${placed.body.share_replica.id}`)
        ).body.share_replica;
        return r?.status === 'available' ? r : undefined;
      },
      10_000,
      'the unhinted replica to be available',
    );
  });
});

describe('a snapshot taken while a replica is being built', () => {
  let hawser: HawserTestServer;

  beforeAll(async () => {
    // Replica creation outlasts the node's retries of the snapshot on the busy replica.
    hawser = await startHawser({
      backends: () => simulatedBackends({ operationLatencyMs: { createReplica: 5000 } }),
    });
    await createReadableType(call);
  });
  afterAll(() => hawser.close());

  const call: ManilaCall = (method, route, body) => hawser.request(method, route, body);
  const show = async (route: string, key: string) => (await hawser.request('GET', route)).body[key];

  it('is taken on the replica once it is built, and is available on both', async () => {
    const shareId = await availableReadableShare(call, 10_000);
    const replica = await hawser.request('POST', '/v2/share-replicas', {
      share_replica: { share_id: shareId, availability_zone: 'az-2' },
    });
    const replicaId = replica.body.share_replica.id as string;
    const snapshot = await hawser.request('POST', '/v2/snapshots', {
      snapshot: { share_id: shareId },
    });
    expect(snapshot.status).toBe(202);
    expect((await show(`/v2/share-replicas/${replicaId}`, 'share_replica')).status).toBe(
      'creating',
    );
    await eventually(
      async () => {
        const r = await show(`/v2/share-replicas/${replicaId}`, 'share_replica');
        return r?.replica_state === 'in_sync' ? r : undefined;
      },
      15_000,
      'the replica to be in_sync',
    );
    await eventually(
      async () => {
        const s = await show(`/v2/snapshots/${snapshot.body.snapshot.id}`, 'snapshot');
        return s?.status === 'available' ? s : undefined;
      },
      10_000,
      'the snapshot to be available on both replicas',
    );
    const history = (await hawser.request('GET', `/hawser/v1/streams/share-${shareId}?limit=1000`))
      .body.events as {
      type: string;
      data: { instanceId?: string; operation?: string; snapshotInstanceId?: string };
    }[];
    // The active replica's node took the snapshot (reference 5.8); the replica, built later,
    // got its instance from its own node's refresh (update_replicated_snapshot).
    const claims = history
      .filter((e) => e.type === 'ShareDriverOperationStarted')
      .map((e) => e.data.operation);
    expect(claims).toContain('create_replicated_snapshot');
    expect(claims).not.toContain('create_snapshot');
    expect(history.filter((e) => e.type === 'ReplicaSnapshotRefreshed')).toHaveLength(1);
    // The node waited for the replica instead of failing the snapshot on it until parked.
    expect((await hawser.request('GET', '/hawser/v1/parked-events')).body.parked_events).toEqual(
      [],
    );
  });
});

describe('writable replication: every replica is active', () => {
  let hawser: HawserTestServer;

  beforeAll(async () => {
    hawser = await startHawser({
      backends: () => simulatedBackends({ replicationType: 'writable' }),
    });
    await hawser.request('POST', '/v2/types', {
      share_type: {
        name: 'writable',
        extra_specs: { driver_handles_share_servers: 'false', replication_type: 'writable' },
      },
    });
  });
  afterAll(() => hawser.close());

  const replicasOf = async (shareId: string) =>
    (await hawser.request('GET', `/v2/share-replicas/detail?share_id=${shareId}`)).body
      .share_replicas as { id: string; status: string; replica_state: string }[];

  it('a new replica is active; promoting it is a 200 no-op; either active replica may go', async () => {
    const created = await hawser.request('POST', '/v2/shares', {
      share: { share_proto: 'NFS', size: 1, share_type: 'writable', availability_zone: 'az-1' },
    });
    const shareId = created.body.share.id as string;
    await eventually(
      async () => ((await replicasOf(shareId))[0]?.status === 'available' ? true : undefined),
      10_000,
      'the share',
    );
    const added = await hawser.request('POST', '/v2/share-replicas', {
      share_replica: { share_id: shareId, availability_zone: 'az-2' },
    });
    const replicaId = added.body.share_replica.id as string;
    const both = await eventually(
      async () => {
        const list = await replicasOf(shareId);
        return list.length === 2 && list.every((r) => r.status === 'available') ? list : undefined;
      },
      10_000,
      'the replica to be available',
    );
    expect(both.map((r) => r.replica_state)).toEqual(['active', 'active']);
    const promoted = await hawser.request('POST', `/v2/share-replicas/${replicaId}/action`, {
      promote: null,
    });
    expect(promoted.status).toBe(200);
    // With another active replica left, the first one may be deleted.
    const first = both.find((r) => r.id !== replicaId)!.id;
    expect((await hawser.request('DELETE', `/v2/share-replicas/${first}`)).status).toBe(202);
    await eventually(
      async () => {
        const list = await replicasOf(shareId);
        return list.length === 1 ? list : undefined;
      },
      10_000,
      'the first replica to go',
    );
    // The last one is the only active replica now.
    expect((await hawser.request('DELETE', `/v2/share-replicas/${replicaId}`)).status).toBe(400);
  });
});
