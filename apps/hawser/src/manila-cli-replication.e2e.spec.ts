import { jest } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import type { BackendConfig } from '#hawser/drivers';
import {
  findManilaCli,
  parseProperties,
  parseTable,
  runManila,
  CLI_STEP_TIMEOUT_MS,
  describeSkippedWithoutCli,
} from './test-support/manila-cli.js';
import { adminCliSession } from './test-support/admin-cli-session.js';
import { eventually } from './test-support/hawser-test-server.js';

/*
 * Seed 001's share replication workflow, driven by the real manila CLI against Hawser on local
 * back ends with real directories: `alpha` in az-1 and `bravo` in az-2 replicate to each other
 * (domain `blue`). Readable replicas are real read-only copies synced from the active one.
 */

jest.setTimeout(CLI_STEP_TIMEOUT_MS);

const manila = findManilaCli();
const PROJECT = 'c0ffee00c0ffee00c0ffee00c0ffee01';

const replicationBackends = (dataDir: string): BackendConfig[] => {
  const options = { root: path.join(dataDir, 'pools') };
  return [
    {
      name: 'node-az1@alpha',
      driver: 'local',
      availabilityZone: 'az-1',
      replicationDomain: 'blue',
      pools: [{ name: 'pool1' }],
      options,
    },
    {
      name: 'node-az2@bravo',
      driver: 'local',
      availabilityZone: 'az-2',
      replicationDomain: 'blue',
      pools: [{ name: 'pool1' }],
      options,
    },
  ];
};

if (!manila) {
  describeSkippedWithoutCli('share replication with the manila CLI');
} else {
  const { hawser, http, cli, target } = await adminCliSession(manila, PROJECT, {
    backends: replicationBackends,
    env: { HAWSER_REPLICA_STATE_UPDATE_INTERVAL_S: '1' },
  });
  const replicaOverHttp = async (id: string) =>
    (await http('GET', `/v2/share-replicas/${id}`)).body.share_replica;
  const waitForReplica = (id: string, status: string, replicaState: string) =>
    eventually(
      async () => {
        const shown = parseProperties((await cli('share-replica-show', id)).stdout);
        return shown.status === status && shown.replica_state === replicaState ? shown : undefined;
      },
      15_000,
      `replica ${id} to be ${status}/${replicaState}`,
    );
  /** The replica's directory: its admin-only export location on the local driver. */
  const directoryOf = async (replicaId: string): Promise<string> => {
    const locations = (await http('GET', `/v2/share-replicas/${replicaId}/export-locations`)).body
      .export_locations as { path: string; is_admin_only: boolean }[];
    const dir = locations.find((l) => l.is_admin_only)?.path;
    expect(dir).toBeDefined();
    return dir as string;
  };
  const writable = (file: string) => (fs.statSync(file).mode & 0o222) !== 0;

  describe('share replication with the manila CLI (seed 001) on local back ends', () => {
    let shareId: string;
    let firstId: string;
    let replicaId: string;
    let snapshotId: string;

    afterAll(() => hawser.close());

    it('type-create and type-key set replication_type=readable', async () => {
      await cli('type-create', 'readable_type_replication', 'False');
      const set = await cli(
        'type-key',
        'readable_type_replication',
        'set',
        'replication_type=readable',
        'snapshot_support=True',
      );
      expect(set.stdout.trim()).toBe('');
      const [row] = parseTable((await cli('extra-specs-list')).stdout);
      expect(row!.all_extra_specs).toContain('replication_type : readable');
    });

    it('create --az az-1: a share with replication_type readable and no replicas yet', async () => {
      const created = parseProperties(
        (
          await cli(
            'create',
            'NFS',
            '1',
            '--share_type',
            'readable_type_replication',
            '--name',
            'my_share',
            '--description',
            'This share will have replicas',
            '--az',
            'az-1',
          )
        ).stdout,
      );
      expect(created).toMatchObject({
        status: 'creating',
        replication_type: 'readable',
        has_replicas: 'False',
        availability_zone: 'az-1',
      });
      shareId = created.id!;
      await eventually(
        async () => {
          const shown = parseProperties((await cli('show', 'my_share')).stdout);
          return shown.status === 'available' ? shown : undefined;
        },
        15_000,
        'the share to be available',
      );
    });

    it('share-replica-list: the share itself is its active replica', async () => {
      const rows = parseTable((await cli('share-replica-list', '--share-id', shareId)).stdout);
      expect(rows).toEqual([
        expect.objectContaining({
          'Share ID': shareId,
          Status: 'available',
          'Replica State': 'active',
        }),
      ]);
      firstId = rows[0]!.ID!;
      fs.writeFileSync(path.join(await directoryOf(firstId), 'data.txt'), 'written on az-1\n');
    });

    it('share-replica-create my_share --az az-2: creating, then available and in_sync', async () => {
      const created = parseProperties(
        (await cli('share-replica-create', 'my_share', '--az', 'az-2')).stdout,
      );
      expect(created).toMatchObject({
        status: 'creating',
        share_id: shareId,
        availability_zone: 'az-2',
        replica_state: 'None',
      });
      replicaId = created.id!;
      const shown = await waitForReplica(replicaId, 'available', 'in_sync');
      expect(shown).toMatchObject({ availability_zone: 'az-2', host: 'node-az2@bravo#pool1' });
      // A real copy, read-only on the secondary.
      const copy = path.join(await directoryOf(replicaId), 'data.txt');
      expect(fs.readFileSync(copy, 'utf8')).toBe('written on az-1\n');
      // Read-only at rest: the node's periodic refresh opens the tree while it copies into it
      // (clients are still held to read-only by the export's rules meanwhile).
      await eventually(
        async () => (writable(copy) ? undefined : true),
        15_000,
        'the secondary copy to be read-only',
      );
      expect(parseProperties((await cli('show', 'my_share')).stdout).has_replicas).toBe('True');
    });

    it('share-replica-list: both replicas with their states', async () => {
      const rows = parseTable((await cli('share-replica-list')).stdout);
      expect(rows.map((r) => [r.ID, r.Status, r['Replica State']]).sort()).toEqual(
        [
          [firstId, 'available', 'active'],
          [replicaId, 'available', 'in_sync'],
        ].sort(),
      );
    });

    it('snapshot-create my_share: available once it exists on both replicas', async () => {
      const created = parseProperties(
        (await cli('snapshot-create', 'my_share', '--name', 'my_snapshot')).stdout,
      );
      snapshotId = created.id!;
      await eventually(
        async () => {
          const shown = parseProperties((await cli('snapshot-show', 'my_snapshot')).stdout);
          return shown.status === 'available' ? shown : undefined;
        },
        15_000,
        'the snapshot to be available',
      );
    });

    it('share-replica-resync: no output, the replica stays in_sync', async () => {
      const resync = await cli('share-replica-resync', replicaId);
      expect(resync.stdout.trim()).toBe('');
      expect((await replicaOverHttp(replicaId)).replica_state).toBe('in_sync');
    });

    it('share-replica-promote: replication_change, then active; the old active is in_sync', async () => {
      fs.writeFileSync(path.join(await directoryOf(firstId), 'late.txt'), 'last write\n');
      await cli('share-replica-promote', replicaId);
      await waitForReplica(replicaId, 'available', 'active');
      await waitForReplica(firstId, 'available', 'in_sync');
      // The promotion synced the last write and flipped which copy is writable.
      const promotedDir = await directoryOf(replicaId);
      expect(fs.readFileSync(path.join(promotedDir, 'late.txt'), 'utf8')).toBe('last write\n');
      expect(writable(path.join(promotedDir, 'data.txt'))).toBe(true);
      const demoted = path.join(await directoryOf(firstId), 'data.txt');
      await eventually(
        async () => (writable(demoted) ? undefined : true),
        15_000,
        'the demoted copy to be read-only at rest',
      );
      expect(parseProperties((await cli('show', 'my_share')).stdout).availability_zone).toBe(
        'az-2',
      );
    });

    it('share-replica-reset-state --state error, then available', async () => {
      await cli('share-replica-reset-state', firstId, '--state', 'error');
      expect(parseProperties((await cli('share-replica-show', firstId)).stdout).status).toBe(
        'error',
      );
      await cli('share-replica-reset-state', firstId, '--state', 'available');
      expect((await replicaOverHttp(firstId)).status).toBe('available');
    });

    it('share-replica-reset-replica-state --state out_of_sync: the next refresh finds it in_sync', async () => {
      await cli('share-replica-reset-replica-state', firstId, '--state', 'out_of_sync');
      await waitForReplica(firstId, 'available', 'in_sync');
      // The audit trail shows the reset and then the periodic refresh that undid it.
      const history = (await http('GET', `/hawser/v1/streams/share-${shareId}?limit=1000`)).body
        .events as { type: string; data: { replicaId?: string; replicaState?: string } }[];
      const ofFirst = history
        .filter((e) => e.data.replicaId === firstId && e.type.startsWith('ReplicaState'))
        .map((e) => `${e.type}:${e.data.replicaState}`);
      expect(ofFirst.slice(-2)).toEqual([
        'ReplicaStateReset:out_of_sync',
        'ReplicaStateRefreshed:in_sync',
      ]);
    });

    it('share-replica-delete: the old active replica and its copy are gone', async () => {
      const dir = await directoryOf(firstId);
      await cli('share-replica-delete', firstId);
      await eventually(
        async () =>
          (await http('GET', `/v2/share-replicas/${firstId}`)).status === 404 ? true : undefined,
        15_000,
        'the replica to be deleted',
      );
      expect(fs.existsSync(dir)).toBe(false);
    });

    it('share-replica-delete --force: a new replica is purged', async () => {
      const created = parseProperties((await cli('share-replica-create', 'my_share')).stdout);
      const id = created.id!;
      await waitForReplica(id, 'available', 'in_sync');
      await cli('share-replica-delete', '--force', id);
      await eventually(
        async () =>
          (await http('GET', `/v2/share-replicas/${id}`)).status === 404 ? true : undefined,
        15_000,
        'the replica to be purged',
      );
      const rows = parseTable((await cli('share-replica-list', '--share-id', shareId)).stdout);
      expect(rows.map((r) => [r.ID, r['Replica State']])).toEqual([[replicaId, 'active']]);
    });

    it('the last active replica cannot be deleted; the share goes once its snapshot is gone', async () => {
      const refused = await runManila(manila, target, ['share-replica-delete', replicaId]);
      expect(refused.stderr).toMatch(/only active replica/);
      await cli('snapshot-delete', snapshotId);
      await eventually(
        async () =>
          (await http('GET', `/v2/snapshots/${snapshotId}`)).status === 404 ? true : undefined,
        15_000,
        'the snapshot to be deleted',
      );
      await cli('delete', 'my_share');
      await eventually(
        async () =>
          (await http('GET', `/v2/shares/${shareId}`)).status === 404 ? true : undefined,
        15_000,
        'the share to be deleted',
      );
    });
  });
}
