import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LocalBackendConfig } from '#hawser/drivers';
import { ENTRY_POINTS, HawserProcess, freePort } from './test-support/hawser-process.js';
import { findNatsServer, NatsServer } from './test-support/nats-server.js';

const binary = findNatsServer();
const suite = binary ? describe : describe.skip;
const title = binary
  ? 'share nodes configured with the same local back end'
  : 'share nodes configured with the same local back end (skipped: nats-server is not installed; apt-get install nats-server)';

suite(title, () => {
  let dir: string;
  let nats: NatsServer;
  let env: Record<string, string>;
  const processes: HawserProcess[] = [];

  const shareNode = (name: string, backends: LocalBackendConfig[]): HawserProcess => {
    const file = path.join(dir, `backends-${name}.json`);
    fs.writeFileSync(file, JSON.stringify(backends));
    const node = new HawserProcess(
      { ...env, HAWSER_NODE_NAME: name, HAWSER_BACKENDS: file },
      ENTRY_POINTS.shareNode,
    );
    processes.push(node);
    return node;
  };

  const backend = (name: string): LocalBackendConfig => ({
    name,
    driver: 'local',
    availabilityZone: 'az-1',
    pools: [{ name: 'pool1' }],
    options: { root: path.join(dir, 'pools') },
  });

  beforeAll(async () => {
    for (const entry of [ENTRY_POINTS.api, ENTRY_POINTS.shareNode]) {
      if (!fs.existsSync(entry.main))
        throw new Error(`${entry.main} is missing: run npm run build first`);
    }
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-lock-'));
    nats = await NatsServer.start(binary as string);
    env = {
      HAWSER_DATA_DIR: path.join(dir, 'data'),
      HAWSER_AUTH: 'noauth',
      NATS_URL: nats.url,
      HAWSER_REPORT_INTERVAL_S: '1',
    };
    // The API first: it creates the SQLite files the share nodes open.
    const api = new HawserProcess({ ...env, PORT: String(await freePort()) }, ENTRY_POINTS.api);
    processes.push(api);
    await api.start();
  }, 60_000);

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await nats?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('given a node serving a back end, when a second node is started with it, then the second exits naming the holder; once the first is SIGKILLed it restarts on its back end', async () => {
    const first = shareNode('one', [backend('lock@alpha')]);
    await first.start();

    const second = shareNode('two', [backend('lock@bravo'), backend('lock@alpha')]);
    const refused = await second.start().then(
      () => undefined,
      (error: Error) => error.message,
    );

    expect(refused).toContain('exited (1) before listening');
    expect(refused).toMatch(
      /Share node two cannot start: Back end lock@alpha is already driven by process \d+ on host /,
    );
    expect(refused).toContain('two share nodes must not serve the same back end');
    // The back end the refused node had locked first was let go, and a third node takes it.
    const bravoLock = path.join(dir, 'pools', 'lock@bravo', '.hawser', 'lock', 'held-1.json');
    expect(JSON.parse(fs.readFileSync(bravoLock, 'utf8'))).toMatchObject({ released: true });
    const third = shareNode('three', [backend('lock@bravo')]);
    await third.start();

    await first.kill();
    const restarted = shareNode('one', [backend('lock@alpha')]);
    await restarted.start();

    expect(restarted.output).toContain('Hawser share node one serving lock@alpha (az-1)');
  }, 60_000);
});
