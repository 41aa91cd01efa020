import fs from 'node:fs';
import path from 'node:path';
import type { BackendConfig } from '#hawser/drivers';
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

const BACKENDS = ['node-az1@alpha', 'node-az2@bravo'] as const;

/** Two local back ends with real directories, one per zone, replicating to each other. */
const replicationBackends = (dataDir: string): BackendConfig[] =>
  BACKENDS.map((name, index) => ({
    name,
    driver: 'local' as const,
    availabilityZone: `az-${index + 1}`,
    replicationDomain: 'blue',
    pools: [{ name: 'pool1' }],
    options: { root: path.join(dataDir, 'pools') },
  }));

/*
 * A snapshot of a share with a readable replica on the local driver (reference 5.8): the node of
 * the active replica takes it on both pools in one create_replicated_snapshot call, and deletes
 * it from both with delete_replicated_snapshot. What is checked is the directories.
 */
describe('snapshots of a replicated share on local back ends', () => {
  let hawser: HawserTestServer;
  let shareId: string;
  let replicaId: string;

  const http = (method: string, route: string, body?: unknown) =>
    hawser.request(method, route, body, { version: '2.72' });
  const snapshotDirs = (backend: string): string[] => {
    const dir = path.join(hawser.dataDir, 'pools', backend, 'pool1', 'snapshots');
    return fs.existsSync(dir) ? fs.readdirSync(dir).map((name) => path.join(dir, name)) : [];
  };
  const history = async () =>
    (await http('GET', `/hawser/v1/streams/share-${shareId}?limit=1000`)).body.events as {
      type: string;
      data: { instanceId?: string; operation?: string };
    }[];

  beforeAll(async () => {
    hawser = await startHawser({
      backends: replicationBackends,
      env: { HAWSER_REPLICA_STATE_UPDATE_INTERVAL_S: '1' },
    });
    shareId = await createReadableShare(http);
    // Data in the share, which the snapshot must hold on both pools.
    const locations = (await http('GET', `/v2/shares/${shareId}/export_locations`)).body
      .export_locations as { path: string; is_admin_only: boolean }[];
    const shareDir = locations.find((l) => l.is_admin_only)?.path as string;
    fs.writeFileSync(path.join(shareDir, 'data.txt'), 'before the snapshot');
    replicaId = await addInSyncReplica(http, shareId);
  });
  afterAll(() => hawser.close());

  it('given a readable replica, when a snapshot is taken, then it exists on both pools with the data; when deleted, then it is gone from both', async () => {
    expect(BACKENDS.map((b) => snapshotDirs(b))).toEqual([[], []]);
    const created = await http('POST', '/v2/snapshots', { snapshot: { share_id: shareId } });
    expect(created.status).toBe(202);
    expect(created.body.snapshot.status).toBe('creating');
    const snapshotId = created.body.snapshot.id as string;
    await eventually(
      async () => {
        const s = (await http('GET', `/v2/snapshots/${snapshotId}`)).body.snapshot;
        return s?.status === 'available' ? s : undefined;
      },
      15_000,
      'the snapshot to be available',
    );
    for (const backend of BACKENDS) {
      const dirs = snapshotDirs(backend);
      expect(dirs).toHaveLength(1);
      expect(fs.readFileSync(path.join(dirs[0] as string, 'data.txt'), 'utf8')).toBe(
        'before the snapshot',
      );
    }
    const claims = (await history())
      .filter((e) => e.type === 'ShareDriverOperationStarted')
      .map((e) => [e.data.instanceId === replicaId ? 'replica' : 'active', e.data.operation]);
    expect(claims).toEqual([
      ['active', 'create_share'],
      ['replica', 'create_replica'],
      ['active', 'create_replicated_snapshot'],
    ]);

    await deleteAndWait(http, `/v2/snapshots/${snapshotId}`, 'the snapshot');
    expect(BACKENDS.map((b) => snapshotDirs(b))).toEqual([[], []]);
    const types = (await history()).map((e) => e.type);
    expect(types).toContain('ReplicatedSnapshotInstancesDeleted');
    expect(types.filter((t) => t === 'SnapshotDeleted')).toHaveLength(1);

    // Nothing of the snapshot is left to block the replica and the share from going.
    await deleteAndWait(http, `/v2/share-replicas/${replicaId}`, 'the replica');
    await deleteAndWait(http, `/v2/shares/${shareId}`, 'the share');
  });
});
