import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ENTRY_POINTS, HawserProcess, freePort } from './test-support/hawser-process.js';
import { manilaRequest } from './test-support/manila-http.js';
import { describeWithNats, NatsServer } from './test-support/nats-server.js';
import { eventually } from './test-support/hawser-test-server.js';

const PROJECT = '55555555555555555555555555555555';
const ADMIN = `admin:${PROJECT}`;
const MEMBER = `alice:${PROJECT}:member,reader`;
const PROJECTING = /Hawser API process (\d+) projecting for the cluster/g;

interface ProjectorStatus {
  projector: { role: 'active' | 'standby'; holder?: { pid: number } };
}

const TITLE = 'the API as a cluster: serving processes and a projector process of its own';

describeWithNats(TITLE, () => {
  let dir: string;
  let nats: NatsServer;
  let api: HawserProcess;
  let base: string;

  const call = (method: string, route: string, body?: unknown, token = ADMIN) =>
    manilaRequest(base, method, route, body, { token });

  /** The pids the cluster's projector processes announced, in order. */
  const projectorPids = (): number[] =>
    [...api.output.matchAll(PROJECTING)].map((match) => Number(match[1]));

  const createAndRead = async (name: string): Promise<string> => {
    const created = await call(
      'POST',
      '/v2/shares',
      { share: { share_proto: 'NFS', size: 1, name, share_type: 'default' } },
      MEMBER,
    );
    expect(created.status).toBe(200);
    const id = created.body.share.id as string;
    // Read right after, through whichever serving process the connection reaches.
    const shown = await call('GET', `/v2/shares/${id}`, undefined, MEMBER);
    expect(shown.status).toBe(200);
    expect(shown.body.share.name).toBe(name);
    return id;
  };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-api-cluster-'));
    nats = await NatsServer.start();
    const port = await freePort();
    api = new HawserProcess(
      {
        HAWSER_DATA_DIR: path.join(dir, 'data'),
        HAWSER_AUTH: 'noauth',
        NATS_URL: nats.url,
        HAWSER_API_PROCESSES: '2',
        HAWSER_API_PROJECTOR_PROCESS: 'true',
        PORT: String(port),
      },
      ENTRY_POINTS.api,
    );
    await api.start(90_000);
    base = `http://127.0.0.1:${port}`;
    const type = await call('POST', '/v2/types', {
      share_type: { name: 'default', extra_specs: { driver_handles_share_servers: 'false' } },
    });
    expect(type.status).toBe(200);
  }, 150_000);

  afterAll(async () => {
    await api?.stop();
    await nats?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('given the cluster, then the projector process holds the lease and the serving processes that answer do not', async () => {
    const [projector] = projectorPids();
    expect(projector).toBeDefined();
    const status = (await call('GET', '/hawser/v1/projections')).body as ProjectorStatus;

    expect(status.projector).toMatchObject({ role: 'standby', holder: { pid: projector } });
  });

  it('given a share created through the port, then it is read right after, and listed', async () => {
    const ids = [await createAndRead('first'), await createAndRead('second')];

    const listed = await call('GET', '/v2/shares', undefined, MEMBER);
    expect(listed.body.shares.map((share: { id: string }) => share.id)).toEqual(
      expect.arrayContaining(ids),
    );
  });

  it('given a rebuild asked of a serving process, then the projector rebuilds and it answers', async () => {
    const rebuilt = await call('POST', '/hawser/v1/projections/shares/rebuild');

    expect(rebuilt.status).toBe(200);
    expect(rebuilt.body.projection).toMatchObject({ name: 'shares', rebuilding: false });
    expect((await call('POST', '/hawser/v1/projections/nope/rebuild')).status).toBe(404);
  });

  it('given the projector process is SIGKILLed, then the primary starts another, which takes the lease, and writes are read again', async () => {
    const [killed] = projectorPids();
    process.kill(killed as number, 'SIGKILL');

    const next = await eventually(
      async () => projectorPids().find((pid) => pid !== killed),
      60_000,
      'another projector process',
    );
    await eventually(
      async () => {
        const status = (await call('GET', '/hawser/v1/projections')).body as ProjectorStatus;
        return status.projector.holder?.pid === next ? true : undefined;
      },
      15_000,
      'the new projector to hold the lease',
    );
    await createAndRead('after the kill');
  }, 120_000);
});
