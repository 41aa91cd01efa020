import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { OperationJournal, type SimulatedBackendConfig } from '#hawser/drivers';
import { ENTRY_POINTS, HawserProcess, freePort } from './test-support/hawser-process.js';
import { manilaRequest } from './test-support/manila-http.js';
import { describeWithNats, NatsServer } from './test-support/nats-server.js';
import { simulatedBackends } from './test-support/simulated-backends.js';

const TOKEN = 'admin:77777777777777777777777777777777';
const TITLE =
  'a promotion when only the node owning the new active replica crashes (separate processes over NATS)';

interface Replica {
  id: string;
  status: string;
  replica_state: string;
  host: string;
}

/*
 * API, scheduler and two share nodes as separate processes: `east` serves az-1, where the share
 * is, and `west` serves az-2, where its replica is. Promotions are slow on `west` (3 s a driver
 * call), and `west` alone is SIGKILLed once it has claimed the promotion.
 */
describeWithNats(TITLE, () => {
  let dir: string;
  let nats: NatsServer;
  let base: string;
  let processes: HawserProcess[] = [];
  let westBackends: SimulatedBackendConfig[];
  let env: Record<string, string>;

  const call = (method: string, route: string, body?: unknown) =>
    manilaRequest(base, method, route, body, { token: TOKEN });
  const poll = async <T>(check: () => Promise<T | undefined>, what: string): Promise<T> => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const value = await check();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const nodeBackends = (node: string, zone: string, latency: Record<string, number>) =>
    simulatedBackends({ operationLatencyMs: latency }, node)
      .filter((b) => b.availabilityZone === zone)
      .map((b) => ({
        ...b,
        options: { ...b.options, journalFile: path.join(dir, `journal-${b.name}.jsonl`) },
      }));
  const shareNode = (name: string, backends: SimulatedBackendConfig[]) => {
    const file = path.join(dir, `backends-${name}.json`);
    fs.writeFileSync(file, JSON.stringify(backends));
    return new HawserProcess(
      { ...env, HAWSER_NODE_NAME: name, HAWSER_BACKENDS: file },
      ENTRY_POINTS.shareNode,
    );
  };

  beforeAll(async () => {
    for (const entry of Object.values(ENTRY_POINTS)) {
      if (!fs.existsSync(entry.main))
        throw new Error(`${entry.main} is missing: run npm run build first`);
    }
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-node-crash-'));
    nats = await NatsServer.start();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    env = {
      HAWSER_DATA_DIR: path.join(dir, 'data'),
      HAWSER_AUTH: 'noauth',
      NATS_URL: nats.url,
      HAWSER_SERVICE_DOWN_TIME_S: '3',
      HAWSER_REPORT_INTERVAL_S: '1',
    };
    const api = new HawserProcess({ ...env, PORT: String(port) }, ENTRY_POINTS.api);
    const scheduler = new HawserProcess(env, ENTRY_POINTS.scheduler);
    westBackends = nodeBackends('west', 'az-2', { promoteReplica: 3000 });
    const east = shareNode('east', nodeBackends('east', 'az-1', {}));
    const west = shareNode('west', westBackends);
    processes = [api, scheduler, east, west];
    await api.start();
    await Promise.all([scheduler.start(), east.start(), west.start()]);
    const deadline = Date.now() + 15_000;
    while (!['east@a1', 'west@a2'].every((b) => scheduler.output.includes(`pools of ${b} `))) {
      if (Date.now() > deadline) throw new Error(`scheduler saw no reports:\n${scheduler.output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }, 90_000);

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await nats?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('after the node restarts, exactly one replica is active and nothing recorded is lost', async () => {
    const replicas = async (shareId: string) =>
      (await call('GET', `/v2/share-replicas/detail?share_id=${shareId}`)).body
        .share_replicas as Replica[];
    const history = async (shareId: string) =>
      (await call('GET', `/hawser/v1/streams/share-${shareId}?limit=1000`)).body.events as {
        id: string;
        type: string;
        data: { operation?: string };
      }[];
    await call('POST', '/v2/types', {
      share_type: {
        name: 'readable',
        extra_specs: { driver_handles_share_servers: 'false', replication_type: 'readable' },
      },
    });
    const share = await call('POST', '/v2/shares', {
      share: { share_proto: 'NFS', size: 1, share_type: 'readable', availability_zone: 'az-1' },
    });
    const shareId = share.body.share.id as string;
    await poll(
      async () => ((await replicas(shareId))[0]?.status === 'available' ? true : undefined),
      'the share on east',
    );
    const added = await call('POST', '/v2/share-replicas', {
      share_replica: { share_id: shareId, availability_zone: 'az-2' },
    });
    const replicaId = added.body.share_replica.id as string;
    const placed = await poll(async () => {
      const list = await replicas(shareId);
      return list.find((r) => r.id === replicaId && r.replica_state === 'in_sync');
    }, 'the replica on west');
    expect(placed.host.startsWith('west@')).toBe(true);

    expect(
      (await call('POST', `/v2/share-replicas/${replicaId}/action`, { promote: null })).status,
    ).toBe(202);
    const atCrash = await poll(async () => {
      const events = await history(shareId);
      return events.some((e) => e.data.operation === 'promote_replica') ? events : undefined;
    }, 'west to claim the promotion');
    const west = processes[3] as HawserProcess;
    await west.kill();
    expect(atCrash.map((e) => e.type)).not.toContain('ReplicaPromoted');
    // The rest of the system goes on answering: the replica shows the promotion under way.
    expect((await replicas(shareId)).find((r) => r.id === replicaId)?.status).toBe(
      'replication_change',
    );

    const restarted = shareNode('west', westBackends);
    processes[3] = restarted;
    await restarted.start();
    const after = await poll(async () => {
      const list = await replicas(shareId);
      return list.every((r) => r.status === 'available') ? list : undefined;
    }, 'the promotion to finish on the restarted node');
    expect(after.filter((r) => r.replica_state === 'active').map((r) => r.id)).toEqual([replicaId]);
    expect(after.find((r) => r.id !== replicaId)?.replica_state).toBe('in_sync');
    const events = await history(shareId);
    expect(events.slice(0, atCrash.length).map((e) => e.id)).toEqual(atCrash.map((e) => e.id));
    expect(events.filter((e) => e.type === 'ReplicaPromoted')).toHaveLength(1);
    const promotions = westBackends
      .flatMap((b) => OperationJournal.read(b.options?.journalFile as string))
      .filter((e) => e.operation === 'promoteReplica');
    expect(promotions.map((e) => e.outcome)).toEqual(['ok']);
  }, 90_000);
});
