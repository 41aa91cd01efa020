import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { OperationJournal, type SimulatedBackendConfig } from '#hawser/drivers';
import { ENTRY_POINTS, HawserProcess, freePort } from './test-support/hawser-process.js';
import { manilaRequest } from './test-support/manila-http.js';
import { describeWithNats, NatsServer } from './test-support/nats-server.js';
import { simulatedBackends } from './test-support/simulated-backends.js';

const TOKEN = 'admin:55555555555555555555555555555555';
const SERVICE_DOWN_TIME_S = 3;
const REPORT_INTERVAL_S = 1;

interface ShareView {
  id: string;
  status: string;
  /** null until the share is placed. */
  host: string | null;
  availability_zone: string;
}

describeWithNats('api, scheduler and share nodes as separate processes over NATS', () => {
  let dir: string;
  let nats: NatsServer;
  let base: string;
  let api: HawserProcess;
  let scheduler: HawserProcess;
  let east: HawserProcess;
  let west: HawserProcess;
  let westBackends: SimulatedBackendConfig[];
  const firstShares: ShareView[] = [];

  const call = (method: string, route: string, body?: unknown) =>
    manilaRequest(base, method, route, body, { token: TOKEN });

  const createShare = async (zone: string): Promise<string> => {
    const created = await call('POST', '/v2/shares', {
      share: { share_proto: 'NFS', size: 1, share_type: 'default', availability_zone: zone },
    });
    expect(created.status).toBe(200);
    return created.body.share.id as string;
  };

  const listShares = async (): Promise<ShareView[]> =>
    (await call('GET', '/v2/shares/detail?all_tenants=1')).body.shares as ShareView[];

  /** Polls the share listing until `done` holds for the shares with these ids. */
  const waitForShares = async (
    ids: readonly string[],
    done: (shares: ShareView[]) => boolean,
    what: string,
    timeoutMs = 20_000,
  ): Promise<ShareView[]> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const wanted = new Set(ids);
      const shares = (await listShares()).filter((s) => wanted.has(s.id));
      if (done(shares)) return shares;
      if (Date.now() > deadline) {
        throw new Error(
          `timed out waiting for ${what}: ${JSON.stringify(shares.map((s) => s.status))}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  const allAvailable = (count: number) => (shares: ShareView[]) =>
    shares.length === count && shares.every((s) => s.status === 'available');

  /**
   * One share node serving the zone's back ends, each journaling every driver call. A create
   * takes a second on the driver, so a batch is still in flight when the test kills the node.
   */
  const nodeBackends = (node: string, zone: string): SimulatedBackendConfig[] =>
    simulatedBackends({ latencyMs: 60, operationLatencyMs: { createShare: 1_000 } }, node)
      .filter((b) => b.availabilityZone === zone)
      .map((b) => ({
        ...b,
        options: { ...b.options, journalFile: path.join(dir, `journal-${b.name}.jsonl`) },
      }));

  const shareNode = (
    name: string,
    backends: SimulatedBackendConfig[],
    env: Record<string, string>,
  ) => {
    const file = path.join(dir, `backends-${name}.json`);
    fs.writeFileSync(file, JSON.stringify(backends));
    return new HawserProcess(
      { ...env, HAWSER_NODE_NAME: name, HAWSER_BACKENDS: file },
      ENTRY_POINTS.shareNode,
    );
  };

  let nodeEnv: Record<string, string>;

  beforeAll(async () => {
    for (const entry of Object.values(ENTRY_POINTS)) {
      if (!fs.existsSync(entry.main))
        throw new Error(`${entry.main} is missing: run npm run build first`);
    }
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-multi-'));
    nats = await NatsServer.start();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const env = {
      HAWSER_DATA_DIR: path.join(dir, 'data'),
      HAWSER_AUTH: 'noauth',
      NATS_URL: nats.url,
      HAWSER_SERVICE_DOWN_TIME_S: String(SERVICE_DOWN_TIME_S),
      HAWSER_REPORT_INTERVAL_S: String(REPORT_INTERVAL_S),
    };
    nodeEnv = env;
    api = new HawserProcess({ ...env, PORT: String(port) }, ENTRY_POINTS.api);
    scheduler = new HawserProcess(env, ENTRY_POINTS.scheduler);
    westBackends = nodeBackends('west', 'az-2');
    east = shareNode('east', nodeBackends('east', 'az-1'), env);
    west = shareNode('west', westBackends, env);
    // The API first: it creates the SQLite files the others open.
    await api.start();
    await Promise.all([scheduler.start(), east.start(), west.start()]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([east, west, scheduler, api].map((p) => p?.stop()));
    await nats?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('given share nodes in two zones, when shares are created in both over HTTP, then each becomes available on the node of its zone', async () => {
    const deadline = Date.now() + 10_000;
    const backends = ['east@a1', 'east@b1', 'west@a2', 'west@b2'];
    while (!backends.every((b) => scheduler.output.includes(`pools of ${b} `))) {
      if (Date.now() > deadline) throw new Error(`scheduler saw no reports:\n${scheduler.output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(
      (
        await call('POST', '/v2/types', {
          share_type: { name: 'default', extra_specs: { driver_handles_share_servers: 'false' } },
        })
      ).status,
    ).toBe(200);

    const zones = ['az-1', 'az-2', 'az-1', 'az-2', 'az-1', 'az-2', 'az-1', 'az-2'];
    const ids = await Promise.all(zones.map(createShare));
    const shares = await waitForShares(ids, allAvailable(ids.length), 'the first shares');

    for (const share of shares) {
      expect(share.host?.startsWith(share.availability_zone === 'az-1' ? 'east@' : 'west@')).toBe(
        true,
      );
    }
    expect(shares.filter((s) => s.availability_zone === 'az-2')).toHaveLength(4);
    firstShares.push(...shares);
  }, 30_000);

  it('given creations and deletions in flight on a node, when it is SIGKILLed and restarted, then each pending operation completes exactly once', async () => {
    const doomed = firstShares.filter((s) => s.availability_zone === 'az-2').slice(0, 2);
    const ids = await Promise.all(Array.from({ length: 16 }, () => createShare('az-2')));
    for (const share of doomed)
      expect((await call('DELETE', `/v2/shares/${share.id}`)).status).toBe(202);

    // Kill the node once the whole batch is placed on it, its creates a second from done.
    const seen = await waitForShares(
      ids,
      (shares) =>
        shares.length === ids.length && shares.every((s) => s.host?.startsWith('west@') === true),
      'the batch to be placed on the node',
    );
    await west.kill();
    expect(seen.filter((s) => s.status !== 'available').length).toBeGreaterThan(0);

    west = shareNode('west', westBackends, nodeEnv);
    await west.start();
    const shares = await waitForShares(
      ids,
      allAvailable(ids.length),
      'the batch after the restart',
    );
    expect(shares.every((s) => s.host?.startsWith('west@') === true)).toBe(true);
    // The restarted node waited for the API's read models before settling what it left open.
    expect(west.output).not.toContain('had not reached position');
    await waitForShares(
      doomed.map((s) => s.id),
      (left) => left.length === 0,
      'the deleted shares to go',
    );

    const entries = westBackends.flatMap((b) =>
      OperationJournal.read(b.options?.journalFile as string),
    );
    const commandsOf = (operation: string) =>
      entries.filter((e) => e.operation === operation).map((e) => e.commandId);
    const repeated = (commands: string[]) => commands.filter((c, i) => commands.indexOf(c) !== i);
    expect(repeated(commandsOf('createShare'))).toEqual([]);
    expect(repeated(commandsOf('deleteShare'))).toEqual([]);
    expect(entries.filter((e) => e.outcome === 'duplicate')).toEqual([]);
    // Every share that reached this node was created once: 4 before the batch, 16 in it.
    expect(commandsOf('createShare')).toHaveLength(20);
    expect(commandsOf('deleteShare')).toHaveLength(2);

    // The API, the one writer of the read models, holds listings equal to a rebuild from the log.
    const sorted = '/v2/shares/detail?all_tenants=1&sort_key=id&sort_dir=asc';
    const live = (await call('GET', sorted)).body.shares;
    expect((await call('POST', '/hawser/v1/projections/shares/rebuild')).status).toBe(200);
    expect((await call('GET', sorted)).body.shares).toEqual(live);
  }, 40_000);

  it('given a node stopped for good, when the service-down time has passed, then its pools leave the scheduler while the other zone still places', async () => {
    expect(await west.stop()).toBe(0);
    await new Promise((resolve) =>
      setTimeout(resolve, (SERVICE_DOWN_TIME_S + REPORT_INTERVAL_S) * 1000 + 500),
    );

    const orphan = await createShare('az-2');
    const placed = await createShare('az-1');
    const [failed] = await waitForShares(
      [orphan],
      (s) => s[0]?.status === 'error',
      'No valid host',
    );
    expect(failed?.host ?? '').not.toMatch(/^west@/);
    const stream = (await call('GET', `/hawser/v1/streams/share-${orphan}`)).body.events as Array<{
      type: string;
      data: { message?: string };
    }>;
    const failure = stream.find((e) => e.type === 'ShareSchedulingFailed');
    expect(failure?.data.message).toMatch(/^No valid host was found\./);
    await waitForShares([placed], allAvailable(1), 'the share in the live zone');
  }, 30_000);

  it('when the remaining processes get SIGTERM, then each stops cleanly', async () => {
    expect(await east.stop()).toBe(0);
    expect(await scheduler.stop()).toBe(0);
    expect(await api.stop()).toBe(0);
  }, 20_000);
});
