import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { OperationJournal, type SimulatedBackendConfig } from '#hawser/drivers';
import { HawserProcess, freePort } from './test-support/hawser-process.js';
import { manilaRequest } from './test-support/manila-http.js';
import { simulatedBackends } from './test-support/simulated-backends.js';

const TOKEN = 'admin:77777777777777777777777777777777';

interface AuditEvent {
  id: string;
  type: string;
  data: { instanceId?: string; operation?: string };
}

/*
 * The all-in-one service runs every share node, so killing it kills the node of the active
 * replica while it takes a snapshot of the share on every replica (reference 5.8). The driver
 * call is slow (2 s), so the kill lands after the node claimed it and before the driver answered.
 */
describe('crash of the active replica’s node during a replicated snapshot', () => {
  let dir: string;
  let backends: SimulatedBackendConfig[];

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-replicated-snapshot-crash-'));
    backends = simulatedBackends({ operationLatencyMs: { createReplicatedSnapshot: 2000 } }).map(
      (b) => ({
        ...b,
        options: { ...b.options, journalFile: path.join(dir, `journal-${b.name}.jsonl`) },
      }),
    );
    fs.writeFileSync(path.join(dir, 'backends.json'), JSON.stringify(backends));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('given create_replicated_snapshot claimed, when the node is SIGKILLed and restarted, then the driver takes the snapshot once and it becomes available on both replicas', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const call = (method: string, route: string, body?: unknown) =>
      manilaRequest(base, method, route, body, { token: TOKEN });
    const env = {
      PORT: String(port),
      HAWSER_DATA_DIR: path.join(dir, 'data'),
      HAWSER_BACKENDS: path.join(dir, 'backends.json'),
      HAWSER_AUTH: 'noauth',
      HAWSER_REPLICA_STATE_UPDATE_INTERVAL_S: '1',
    };
    const poll = async <T>(check: () => Promise<T | undefined>, what: string): Promise<T> => {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const value = await check();
        if (value !== undefined) return value;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const history = async (shareId: string) =>
      (await call('GET', `/hawser/v1/streams/share-${shareId}?limit=1000`)).body
        .events as AuditEvent[];
    const snapshotStatus = async (snapshotId: string) =>
      (await call('GET', `/v2/snapshots/${snapshotId}`)).body.snapshot?.status as
        string | undefined;

    const first = new HawserProcess(env);
    await first.start();
    let shareId: string;
    let snapshotId: string;
    let atCrash: AuditEvent[];
    try {
      await call('POST', '/v2/types', {
        share_type: {
          name: 'readable',
          extra_specs: {
            driver_handles_share_servers: 'false',
            replication_type: 'readable',
            snapshot_support: 'true',
          },
        },
      });
      const share = await call('POST', '/v2/shares', {
        share: { share_proto: 'NFS', size: 1, share_type: 'readable', availability_zone: 'az-1' },
      });
      shareId = share.body.share.id as string;
      await poll(async () => {
        const s = (await call('GET', `/v2/shares/${shareId}`)).body.share;
        return s?.status === 'available' ? s : undefined;
      }, 'the share');
      const added = await call('POST', '/v2/share-replicas', {
        share_replica: { share_id: shareId, availability_zone: 'az-2' },
      });
      const replicaId = added.body.share_replica.id as string;
      await poll(async () => {
        const r = (await call('GET', `/v2/share-replicas/${replicaId}`)).body.share_replica;
        return r?.replica_state === 'in_sync' ? r : undefined;
      }, 'the replica to be in_sync');

      const snapshot = await call('POST', '/v2/snapshots', { snapshot: { share_id: shareId } });
      expect(snapshot.status).toBe(202);
      snapshotId = snapshot.body.snapshot.id as string;
      atCrash = await poll(async () => {
        const events = await history(shareId);
        return events.some(
          (e) =>
            e.type === 'ShareDriverOperationStarted' &&
            e.data.operation === 'create_replicated_snapshot',
        )
          ? events
          : undefined;
      }, 'the node to claim the snapshot');
    } finally {
      await first.kill();
    }
    expect(atCrash.map((e) => e.type)).not.toContain('ReplicatedSnapshotCreated');

    const second = new HawserProcess(env);
    await second.start();
    try {
      await poll(
        async () => ((await snapshotStatus(snapshotId)) === 'available' ? true : undefined),
        'the snapshot to be available after the restart',
      );
      const events = await history(shareId);
      // Every event recorded before the crash is still there, in order.
      expect(events.slice(0, atCrash.length).map((e) => e.id)).toEqual(atCrash.map((e) => e.id));
      const claims = events.filter(
        (e) =>
          e.type === 'ShareDriverOperationStarted' &&
          e.data.operation === 'create_replicated_snapshot',
      );
      expect(claims).toHaveLength(1);
      expect(events.filter((e) => e.type === 'ReplicatedSnapshotCreated')).toHaveLength(1);
      expect(events.filter((e) => e.type === 'ReplicaSnapshotRefreshed')).toHaveLength(1);

      // The driver took the snapshot once: the killed call never answered, the re-run did.
      const journal = backends.flatMap((b) =>
        OperationJournal.read(b.options?.journalFile as string),
      );
      const taken = journal.filter((e) => e.operation === 'createReplicatedSnapshot');
      expect(taken.map((e) => e.outcome)).toEqual(['ok']);
      expect(journal.filter((e) => e.operation === 'createSnapshot')).toEqual([]);
    } finally {
      expect(await second.stop()).toBe(0);
    }
  }, 120_000);
});
