import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { OperationJournal, type SimulatedBackendConfig } from '#hawser/drivers';
import { crashedService, type AuditEvent } from './test-support/crashed-service.js';
import { HawserProcess } from './test-support/hawser-process.js';
import { eventually } from './test-support/hawser-test-server.js';
import { addInSyncReplica, createReadableShare } from './test-support/replicated-share.js';
import { journalledSimulatedBackends } from './test-support/simulated-backends.js';

const TOKEN = 'admin:66666666666666666666666666666666';

/*
 * The all-in-one service runs every share node, so killing it kills the node that owns the
 * replica being promoted. Promotions are slow (2 s a driver call), so the kill lands after the
 * node claimed the promotion and before the driver answered.
 */
describe('crash of the node owning the new active replica during a promotion', () => {
  let dir: string;
  let backends: SimulatedBackendConfig[];

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-promote-crash-'));
    backends = journalledSimulatedBackends(dir, { operationLatencyMs: { promoteReplica: 2000 } });
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('given a promotion claimed by the node, when the node is SIGKILLed and restarted, then exactly one replica is active and nothing recorded is lost', async () => {
    const { env, call, history } = await crashedService(dir, TOKEN);
    const poll = <T>(check: () => Promise<T | undefined>, what: string): Promise<T> =>
      eventually(check, 30_000, what, 20);
    const replicas = async (shareId: string) =>
      (await call('GET', `/v2/share-replicas/detail?share_id=${shareId}`)).body.share_replicas as {
        id: string;
        status: string;
        replica_state: string;
        host: string;
      }[];

    const first = new HawserProcess(env);
    await first.start();
    let shareId: string;
    let replicaId: string;
    let atCrash: AuditEvent[];
    try {
      shareId = await createReadableShare(call);
      replicaId = await addInSyncReplica(call, shareId);
      // A rule and a snapshot the promotion must not lose.
      await call('POST', `/v2/shares/${shareId}/action`, {
        allow_access: { access_type: 'ip', access_to: '10.0.0.0/24', access_level: 'rw' },
      });
      const snapshot = await call('POST', '/v2/snapshots', { snapshot: { share_id: shareId } });
      await poll(async () => {
        const s = (await call('GET', `/v2/snapshots/${snapshot.body.snapshot.id}`)).body.snapshot;
        return s?.status === 'available' ? s : undefined;
      }, 'the snapshot');
      await poll(async () => {
        const s = (await call('GET', `/v2/shares/${shareId}`)).body.share;
        return s?.access_rules_status === 'active' ? s : undefined;
      }, 'the rule to be applied');

      const promoted = await call('POST', `/v2/share-replicas/${replicaId}/action`, {
        promote: null,
      });
      expect(promoted.status).toBe(202);
      // Kill once the node owning the replica has claimed the promotion.
      atCrash = await poll(async () => {
        const events = await history(shareId);
        return events.some(
          (e) => e.type === 'ShareDriverOperationStarted' && e.data.operation === 'promote_replica',
        )
          ? events
          : undefined;
      }, 'the node to claim the promotion');
    } finally {
      await first.kill();
    }
    expect(atCrash.map((e) => e.type)).not.toContain('ReplicaPromoted');

    const second = new HawserProcess(env);
    await second.start();
    try {
      const after = await poll(async () => {
        const list = await replicas(shareId);
        return list.every((r) => r.status === 'available') ? list : undefined;
      }, 'the promotion to finish after the restart');
      expect(after.filter((r) => r.replica_state === 'active').map((r) => r.id)).toEqual([
        replicaId,
      ]);
      expect(after).toHaveLength(2);
      expect(after.find((r) => r.id !== replicaId)?.replica_state).toBe('in_sync');

      // Every event recorded before the crash is still there, in order, then the promotion.
      const events = await history(shareId);
      expect(events.slice(0, atCrash.length).map((e) => e.id)).toEqual(atCrash.map((e) => e.id));
      expect(events.filter((e) => e.type === 'ReplicaPromoted')).toHaveLength(1);
      const share = (await call('GET', `/v2/shares/${shareId}`)).body.share;
      expect(share).toMatchObject({ status: 'available', has_replicas: true });
      const snapshots = (await call('GET', `/v2/snapshots?share_id=${shareId}`)).body.snapshots;
      expect(snapshots).toHaveLength(1);
      const rules = (await call('GET', `/v2/share-access-rules?share_id=${shareId}`)).body
        .access_list as { access_to: string }[];
      expect(rules.map((r) => r.access_to)).toEqual(['10.0.0.0/24']);

      // The driver promoted once: the killed call never answered, the re-run did.
      const promotions = backends
        .flatMap((b) => OperationJournal.read(b.options?.journalFile as string))
        .filter((e) => e.operation === 'promoteReplica');
      expect(promotions.map((e) => e.outcome)).toEqual(['ok']);
    } finally {
      expect(await second.stop()).toBe(0);
    }
  }, 120_000);
});
