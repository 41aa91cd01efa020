import {
  eventually,
  startHawser,
  type HawserTestServer,
} from './test-support/hawser-test-server.js';
import {
  addInSyncReplica,
  createReadableShare,
  deleteAndWait,
} from './test-support/replicated-share.js';
import { simulatedBackends } from './test-support/simulated-backends.js';

interface AuditEvent {
  type: string;
  data: { instanceId?: string; operation?: string; snapshotInstanceId?: string };
}

/*
 * Snapshots of shares with replicas over HTTP on simulated back ends (reference 5.7, 5.8): the
 * node of the active replica takes every instance in one call, the simulated driver answers the
 * instance on another back end `creating`, and that replica's node makes it available at its
 * next refresh (every second here), when the snapshot turns available.
 */
const snapshotLifecycle = (
  replication: 'readable' | 'writable',
  prepare: (hawser: HawserTestServer) => Promise<{ shareId: string; replicaId: string }>,
) =>
  describe(`a snapshot of a ${replication} share with a replica, on simulated back ends`, () => {
    let hawser: HawserTestServer;
    let shareId: string;
    let replicaId: string;

    const call = (method: string, route: string, body?: unknown) =>
      hawser.request(method, route, body);
    const history = async () =>
      (await call('GET', `/hawser/v1/streams/share-${shareId}?limit=1000`)).body
        .events as AuditEvent[];
    const status = async (snapshotId: string) =>
      (await call('GET', `/v2/snapshots/${snapshotId}`)).body.snapshot?.status as
        string | undefined;

    beforeAll(async () => {
      hawser = await startHawser({
        backends: () => simulatedBackends({ replicationType: replication }),
        env: { HAWSER_REPLICA_STATE_UPDATE_INTERVAL_S: '1' },
      });
      ({ shareId, replicaId } = await prepare(hawser));
    });
    afterAll(() => hawser.close());

    it('is creating until the replica’s node refreshes its instance, then available; deleted, it is gone from both back ends', async () => {
      const created = await call('POST', '/v2/snapshots', { snapshot: { share_id: shareId } });
      expect(created.status).toBe(202);
      expect(created.body.snapshot.status).toBe('creating');
      const snapshotId = created.body.snapshot.id as string;
      await eventually(
        async () => ((await status(snapshotId)) === 'available' ? true : undefined),
        15_000,
        'the snapshot to be available',
      );
      const types = (await history()).map((e) => e.type);
      const createdAt = types.indexOf('ReplicatedSnapshotCreated');
      const refreshedAt = types.indexOf('ReplicaSnapshotRefreshed');
      expect(createdAt).toBeGreaterThan(-1);
      expect(refreshedAt).toBeGreaterThan(createdAt);
      const claims = (await history())
        .filter((e) => e.type === 'ShareDriverOperationStarted')
        .map((e) => [e.data.instanceId === replicaId ? 'replica' : 'first', e.data.operation]);
      expect(claims.slice(-1)).toEqual([['first', 'create_replicated_snapshot']]);

      await deleteAndWait(call, `/v2/snapshots/${snapshotId}`, 'the snapshot');
      const after = (await history()).map((e) => e.type);
      expect(after).toContain('ReplicatedSnapshotInstancesDeleted');
      expect(after.filter((t) => t === 'SnapshotInstanceDeleted')).toHaveLength(1);
      // Nothing of it is left on either back end: the replica and then the share can go.
      await deleteAndWait(call, `/v2/share-replicas/${replicaId}`, 'the replica');
      await deleteAndWait(call, `/v2/shares/${shareId}`, 'the share');
    });
  });

snapshotLifecycle('readable', async (hawser) => {
  const call = (method: string, route: string, body?: unknown) =>
    hawser.request(method, route, body);
  const shareId = await createReadableShare(call);
  return { shareId, replicaId: await addInSyncReplica(call, shareId) };
});

// Every writable replica is active: the refresh covers those other than the coordinating one.
snapshotLifecycle('writable', async (hawser) => {
  const call = (method: string, route: string, body?: unknown) =>
    hawser.request(method, route, body);
  await call('POST', '/v2/types', {
    share_type: {
      name: 'writable',
      extra_specs: {
        driver_handles_share_servers: 'false',
        replication_type: 'writable',
        snapshot_support: 'true',
      },
    },
  });
  const share = await call('POST', '/v2/shares', {
    share: { share_proto: 'NFS', size: 1, share_type: 'writable', availability_zone: 'az-1' },
  });
  const shareId = share.body.share.id as string;
  await eventually(
    async () =>
      (await call('GET', `/v2/shares/${shareId}`)).body.share?.status === 'available'
        ? true
        : undefined,
    15_000,
    'the share',
  );
  const added = await call('POST', '/v2/share-replicas', {
    share_replica: { share_id: shareId, availability_zone: 'az-2' },
  });
  const replicaId = added.body.share_replica.id as string;
  await eventually(
    async () => {
      const r = (await call('GET', `/v2/share-replicas/${replicaId}`)).body.share_replica;
      return r?.status === 'available' && r.replica_state === 'active' ? r : undefined;
    },
    15_000,
    'the replica to be active',
  );
  return { shareId, replicaId };
});
