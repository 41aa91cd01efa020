import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from 'graphql-ws';
import { ENTRY_POINTS, HawserProcess, freePort } from './test-support/hawser-process.js';
import { manilaRequest } from './test-support/manila-http.js';
import { describeWithNats, NatsServer } from './test-support/nats-server.js';
import { graphqlSocket } from './test-support/graphql-client.js';
import { eventually } from './test-support/hawser-test-server.js';

const PROJECT = '66666666666666666666666666666666';
const ADMIN = `admin:${PROJECT}`;
const MEMBER = `alice:${PROJECT}:member,reader`;

interface ApiProcess {
  readonly base: string;
  readonly process: HawserProcess;
}

interface ProjectorStatus {
  projector: { role: 'active' | 'standby'; holder?: { pid: number } };
  projections: { name: string; position: number }[];
}

describeWithNats('several API processes over NATS with one projector', () => {
  let dir: string;
  let nats: NatsServer;
  let env: Record<string, string>;
  let first: ApiProcess;
  let second: ApiProcess;

  const call = (api: ApiProcess, method: string, route: string, body?: unknown, token = ADMIN) =>
    manilaRequest(api.base, method, route, body, { token });

  const startApi = async (): Promise<ApiProcess> => {
    const port = await freePort();
    const process = new HawserProcess({ ...env, PORT: String(port) }, ENTRY_POINTS.api);
    await process.start(60_000);
    return { base: `http://127.0.0.1:${port}`, process };
  };

  const createShare = async (api: ApiProcess, name: string): Promise<string> => {
    const created = await call(
      api,
      'POST',
      '/v2/shares',
      { share: { share_proto: 'NFS', size: 1, name, share_type: 'default' } },
      MEMBER,
    );
    expect(created.status).toBe(200);
    return created.body.share.id as string;
  };

  const projectorOf = async (api: ApiProcess): Promise<ProjectorStatus> =>
    (await call(api, 'GET', '/hawser/v1/projections')).body as ProjectorStatus;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-api-processes-'));
    nats = await NatsServer.start();
    env = {
      HAWSER_DATA_DIR: path.join(dir, 'data'),
      HAWSER_AUTH: 'noauth',
      NATS_URL: nats.url,
      HAWSER_PROJECTOR_LEASE_MS: '1000',
    };
    first = await startApi();
    second = await startApi();
    const type = await call(first, 'POST', '/v2/types', {
      share_type: { name: 'default', extra_specs: { driver_handles_share_servers: 'false' } },
    });
    expect(type.status).toBe(200);
  }, 150_000);

  afterAll(async () => {
    await first?.process.stop();
    await second?.process.stop();
    await nats?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('given two API processes, then the first holds the projector lease and the second projects nothing', async () => {
    expect(first.process.output).toContain('projector active');
    expect(second.process.output).toContain('projector standby');
    const standby = await projectorOf(second);
    expect(standby.projector.role).toBe('standby');
    expect(standby.projections).toEqual([]);
    expect((await projectorOf(first)).projector.role).toBe('active');
  });

  it('given a share created through either process, when it is read through the other right after, then it is there', async () => {
    const throughStandby = await createShare(second, 'through-the-standby');
    const onProjector = await call(first, 'GET', `/v2/shares/${throughStandby}`, undefined, MEMBER);
    expect(onProjector.status).toBe(200);
    expect(onProjector.body.share.name).toBe('through-the-standby');

    const throughProjector = await createShare(first, 'through-the-projector');
    const onStandby = await call(
      second,
      'GET',
      `/v2/shares/${throughProjector}`,
      undefined,
      MEMBER,
    );
    expect(onStandby.status).toBe(200);
    expect(onStandby.body.share.name).toBe('through-the-projector');
    const listed = await call(second, 'GET', '/v2/shares', undefined, MEMBER);
    expect(listed.body.shares.map((s: { id: string }) => s.id)).toEqual(
      expect.arrayContaining([throughStandby, throughProjector]),
    );
  }, 60_000);

  it('given one share, when twenty metadata items are set at once through both processes, then every request is accepted and every item is there', async () => {
    const shareId = await createShare(first, 'many-items-at-once');
    // Requests decided on one revision of the share in two processes meet each other's appends;
    // each is decided again on the newer revision, as Manila takes them all.
    const keys = Array.from({ length: 20 }, (_, i) => `key-${i}`);
    const answers = await Promise.all(
      keys.map((key, i) =>
        call(
          i % 2 === 0 ? first : second,
          'POST',
          `/v2/shares/${shareId}/metadata`,
          { metadata: { [key]: 'set at once' } },
          MEMBER,
        ),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(keys.map(() => 200));
    const metadata = await call(first, 'GET', `/v2/shares/${shareId}/metadata`, undefined, MEMBER);
    expect(Object.keys(metadata.body.metadata).sort()).toEqual([...keys].sort());
  }, 60_000);

  it('given a subscription on the standby, when a share is created through the projector, then the subscription sees it', async () => {
    const client: Client = graphqlSocket(second.base, MEMBER);
    const subscription = client.iterate<{ projectSharesChanged: { shareId: string } }>({
      query: 'subscription { projectSharesChanged { shareId status } }',
    });
    const created: string[] = [];
    try {
      const seen = subscription.next();
      // The server takes the subscription at some point after the socket opens: create until
      // one creation is pushed (one made before it listened is not).
      const change = await eventually(
        async () => {
          created.push(await createShare(first, `followed-${created.length}`));
          return Promise.race([
            seen,
            new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 1_000)),
          ]);
        },
        30_000,
        'a change pushed to the standby',
      );
      expect(change.done).toBe(false);
      expect(created).toContain(change.value?.data?.projectSharesChanged.shareId);
    } finally {
      await subscription.return?.();
      await client.dispose();
    }
  }, 60_000);

  it('given the projector is SIGKILLed while shares are created, then the standby takes over and every share is there once', async () => {
    const before = (await call(second, 'GET', '/v2/shares', undefined, MEMBER)).body.shares
      .length as number;
    const created: string[] = [];
    const creating = (async () => {
      for (let i = 0; i < 12; i += 1) created.push(await createShare(second, `during-${i}`));
    })();
    await eventually(async () => (created.length >= 4 ? true : undefined), 30_000, 'creations');
    await first.process.kill();
    await creating;

    const status = await eventually(
      async () => {
        const now = await projectorOf(second);
        return now.projector.role === 'active' ? now : undefined;
      },
      15_000,
      'the standby to take over',
    );
    expect(second.process.output).toContain('took the projector lease');
    const head = Math.max(...status.projections.map((p) => p.position));
    expect(status.projections.length).toBeGreaterThan(0);

    // Every share created before and after the kill is there once, as it was requested.
    for (const id of created) {
      const share = await call(second, 'GET', `/v2/shares/${id}`, undefined, MEMBER);
      expect(share.status).toBe(200);
    }
    const listed = (await call(second, 'GET', '/v2/shares', undefined, MEMBER)).body.shares as {
      id: string;
      name: string;
    }[];
    expect(listed).toHaveLength(before + created.length);
    expect(new Set(listed.map((s) => s.id)).size).toBe(listed.length);
    const names = listed.map((s) => s.name).filter((name) => name.startsWith('during-'));
    expect(names.sort()).toEqual(Array.from({ length: 12 }, (_, i) => `during-${i}`).sort());
    // The new projector reaches the head of the log in every read model.
    await eventually(
      async () =>
        (await projectorOf(second)).projections.every((p) => p.position >= head) ? true : undefined,
      10_000,
      'every read model at the head of the log',
    );
  }, 120_000);
});
