import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { OperationJournal, type SimulatedBackendConfig } from '#hawser/drivers';
import { crashedService, type AuditEvent } from './test-support/crashed-service.js';
import { HawserProcess } from './test-support/hawser-process.js';
import { eventually } from './test-support/hawser-test-server.js';
import { addInSyncReplica, createReadableShare } from './test-support/replicated-share.js';
import { journalledSimulatedBackends } from './test-support/simulated-backends.js';

const TOKEN = 'admin:77777777777777777777777777777777';

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
    backends = journalledSimulatedBackends(dir, {
      operationLatencyMs: { createReplicatedSnapshot: 2000 },
    });
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('given create_replicated_snapshot claimed, when the node is SIGKILLed and restarted, then the driver takes the snapshot once and it becomes available on both replicas', async () => {
    const { env, call, history } = await crashedService(dir, TOKEN);
    const poll = <T>(check: () => Promise<T | undefined>, what: string): Promise<T> =>
      eventually(check, 30_000, what, 20);
    const snapshotStatus = async (snapshotId: string) =>
      (await call('GET', `/v2/snapshots/${snapshotId}`)).body.snapshot?.status as
        string | undefined;

    const first = new HawserProcess(env);
    await first.start();
    let shareId: string;
    let snapshotId: string;
    let atCrash: AuditEvent[];
    try {
      shareId = await createReadableShare(call);
      await addInSyncReplica(call, shareId);

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
