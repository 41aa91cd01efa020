import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { jest } from '@jest/globals';
import type { Client } from 'graphql-ws';
import { ShareChangeFeed } from '../../api/src/graphql/subscriptions/share-change-feed.js';
import { fromSnapshotBackends } from './test-support/from-snapshot-backends.js';
import { graphqlSocket } from './test-support/graphql-client.js';
import {
  eventually,
  startHawser,
  type HawserTestServer,
} from './test-support/hawser-test-server.js';
import {
  createShareType,
  migrationSteps,
  startMigrationHawser,
} from './test-support/share-migration.js';
import { simulatedBackends } from './test-support/simulated-backends.js';

const PROJECT = '22222222222222222222222222222222';
const MEMBER = `alice:${PROJECT}:member,reader`;
const OTHER = 'bob:33333333333333333333333333333333:member,reader';

interface Change {
  shareId: string;
  status: string;
  progress: string | null;
  share: { name: string; host?: string | null; snapshotId?: string | null } | null;
}

/** A change of a migrating share, with its task state. */
interface MigrationChange {
  shareId: string;
  status: string;
  progress: string | null;
  share: { taskState: string | null; host: string | null } | null;
}

const CHARLIE = 'node-az2@charlie#pool1';

/**
 * Subscribes, runs `onSubscribed`, then takes changes until `last` holds for one; stops
 * waiting `timeoutMs` after `onSubscribed` has finished.
 */
const changesUntil = async <T extends { shareId: string } = Change>(
  hawser: HawserTestServer,
  client: Client,
  query: string,
  variables: Record<string, unknown>,
  last: (change: T) => boolean,
  onSubscribed: () => Promise<void> = async () => {},
  // Generous: on a busy machine a creation or deletion through the node takes seconds.
  timeoutMs = 30_000,
): Promise<T[]> => {
  // The real feed, watched: the subscription is live once the server listens to it.
  const listens = jest.spyOn(hawser.app.get(ShareChangeFeed), 'listen');
  const listening = listens.mock.calls.length;
  const subscription = client.iterate<Record<string, T>>({ query, variables });
  const changes: T[] = [];
  let timer: NodeJS.Timeout | undefined;
  try {
    let settled = false;
    const first = subscription.next();
    // A refusal may arrive before it is awaited below; it is still thrown there.
    first.then(
      () => (settled = true),
      () => (settled = true),
    );
    await eventually(
      async () => (listens.mock.calls.length > listening || settled ? true : undefined),
      10_000,
      'the server to take the subscription',
    );
    await onSubscribed();
    timer = setTimeout(() => void subscription.return?.(), timeoutMs);
    for (let result = await first; !result.done; result = await subscription.next()) {
      if (result.value.errors) throw new Error(JSON.stringify(result.value.errors));
      const change = Object.values(result.value.data ?? {})[0] as T;
      changes.push(change);
      if (last(change)) break;
    }
  } finally {
    clearTimeout(timer);
    await subscription.return?.();
  }
  return changes;
};

describe('GraphQL subscriptions over graphql-ws', () => {
  let hawser: HawserTestServer;
  let client: Client;

  // Every driver call takes a while, so a creation is seen in its steps.
  beforeAll(async () => {
    hawser = await startHawser({ backends: () => simulatedBackends({ latencyMs: 200 }) });
    const type = await hawser.request('POST', '/v2/types', {
      share_type: { name: 'default', extra_specs: { driver_handles_share_servers: 'false' } },
    });
    expect(type.status).toBe(200);
    client = graphqlSocket(hawser.url, MEMBER);
  });
  afterAll(async () => {
    await client.dispose();
    await hawser.close();
  });

  const create = async (name: string, token = MEMBER): Promise<string> => {
    const created = await hawser.request(
      'POST',
      '/v2/shares',
      { share: { share_proto: 'NFS', size: 1, name, share_type: 'default' } },
      { token },
    );
    expect(created.status).toBe(200);
    return created.body.share.id as string;
  };

  it("pushes a project's share from creating to available as the projection applies its events", async () => {
    let id = '';
    const changes = await changesUntil(
      hawser,
      client,
      `subscription { projectSharesChanged { shareId status progress share { name host } } }`,
      {},
      (change) => change.status === 'available',
      async () => {
        id = await create('followed');
      },
    );
    expect(changes.every((change) => change.shareId === id)).toBe(true);
    expect(changes[0]).toMatchObject({
      status: 'creating',
      share: { name: 'followed', host: null },
    });
    expect(changes[changes.length - 1]).toMatchObject({ status: 'available', progress: '100%' });
  }, 60_000);

  it('follows one share until it is deleted', async () => {
    const id = await create('short-lived');
    const changes = await changesUntil(
      hawser,
      client,
      `subscription($id: ID!) { shareChanged(id: $id) { shareId status share { name } } }`,
      { id },
      (change) => change.status === 'deleted',
      async () => {
        // Deleting waits for the share to be available; retry until the API accepts it.
        for (;;) {
          const deleted = await hawser.request('DELETE', `/v2/shares/${id}`, undefined, {
            token: MEMBER,
          });
          if (deleted.status === 202) return;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      },
    );
    const statuses = changes.map((change) => change.status);
    expect(statuses).toContain('deleting');
    expect(changes[changes.length - 1]).toEqual({ shareId: id, status: 'deleted', share: null });
  }, 60_000);

  it("refuses another project's share, another project's feed, and a connection without a valid token", async () => {
    const othersShare = await create('not-yours', OTHER);
    await expect(
      changesUntil(
        hawser,
        client,
        `subscription($id: ID!) { shareChanged(id: $id) { status } }`,
        { id: othersShare },
        () => true,
      ),
    ).rejects.toThrow(`Share ${othersShare} could not be found.`);
    await expect(
      changesUntil(
        hawser,
        client,
        `subscription { projectSharesChanged(projectId: "33333333333333333333333333333333") { status } }`,
        {},
        () => true,
      ),
    ).rejects.toThrow('"code":"FORBIDDEN"');

    const anonymous = graphqlSocket(hawser.url, 'no-project');
    await expect(
      changesUntil(
        hawser,
        anonymous,
        `subscription { projectSharesChanged { status } }`,
        {},
        () => true,
      ),
    ).rejects.toHaveProperty('code', 4403);
    await anonymous.dispose();
  });

  it('refuses a subscription of more than 1,000 tokens, as the HTTP endpoint does', async () => {
    // A socket of its own: graphql-ws closes the connection on a document it cannot parse.
    const socket = graphqlSocket(hawser.url, MEMBER);
    const list = `${'['.repeat(600)}${']'.repeat(600)}`;
    await expect(
      changesUntil(
        hawser,
        socket,
        `subscription { projectSharesChanged(projectId: ${list}) { status } }`,
        {},
        () => true,
      ),
    ).rejects.toHaveProperty(
      'reason',
      'Syntax Error: Document contains more that 1000 tokens. Parsing aborted.',
    );
    await socket.dispose();
  });
});

describe('following a share created from a snapshot over a GraphQL subscription', () => {
  let hawser: HawserTestServer;
  let client: Client;

  // Local back ends with real directories; copies across pools are slow enough to watch.
  beforeAll(async () => {
    hawser = await startHawser({
      backends: fromSnapshotBackends,
      env: {
        HAWSER_USE_SCHEDULER_CREATING_SHARE_FROM_SNAPSHOT: 'true',
        HAWSER_SHARE_STATUS_POLL_MS: '100',
      },
    });
    const type = await hawser.request('POST', '/v2/types', {
      share_type: {
        name: 'clonable',
        extra_specs: {
          driver_handles_share_servers: 'false',
          snapshot_support: 'true',
          create_share_from_snapshot_support: 'true',
          share_backend_name: 'alpha',
        },
      },
    });
    expect(type.status).toBe(200);
    client = graphqlSocket(hawser.url, MEMBER);
  }, 60_000);
  afterAll(async () => {
    await client.dispose();
    await hawser.close();
  });

  const statusOf = (route: string, key: string, status: string) =>
    eventually(
      async () => {
        const shown = (await hawser.request('GET', route)).body[key];
        return shown?.status === status ? shown : undefined;
      },
      20_000,
      `${route} to be ${status}`,
    );

  it('receives the creating_from_snapshot progress events of the new share until it is available', async () => {
    const source = await hawser.request(
      'POST',
      '/v2/shares',
      { share: { share_proto: 'NFS', size: 1, name: 'source', share_type: 'clonable' } },
      { token: MEMBER },
    );
    expect(source.status).toBe(200);
    const sourceId = source.body.share.id as string;
    await statusOf(`/v2/shares/${sourceId}`, 'share', 'available');
    const locations = await hawser.request('GET', `/v2/shares/${sourceId}/export_locations`);
    const local = (
      locations.body.export_locations as { path: string; is_admin_only: boolean }[]
    ).find((l) => l.is_admin_only)?.path as string;
    // 6 MiB at 4 MiB/s: the copy to the other zone takes long enough to report progress.
    fs.writeFileSync(path.join(local, 'data.bin'), randomBytes(6 * 1024 * 1024));
    const snapshot = await hawser.request(
      'POST',
      '/v2/snapshots',
      { snapshot: { share_id: sourceId, name: 'snap' } },
      { token: MEMBER },
    );
    expect(snapshot.status).toBe(202);
    const snapshotId = snapshot.body.snapshot.id as string;
    await statusOf(`/v2/snapshots/${snapshotId}`, 'snapshot', 'available');

    let cloneId = '';
    const changes = await changesUntil(
      hawser,
      client,
      `subscription { projectSharesChanged { shareId status progress share { name snapshotId } } }`,
      {},
      (change) => change.shareId === cloneId && ['available', 'error'].includes(change.status),
      async () => {
        const clone = await hawser.request(
          'POST',
          '/v2/shares',
          {
            share: {
              share_proto: 'NFS',
              name: 'clone',
              snapshot_id: snapshotId,
              availability_zone: 'az-2',
            },
          },
          { token: MEMBER },
        );
        expect(clone.status).toBe(200);
        cloneId = clone.body.share.id as string;
      },
      30_000,
    );
    const ofClone = changes.filter((change) => change.shareId === cloneId);
    expect(ofClone[0]?.share).toEqual({ name: 'clone', snapshotId });
    expect(ofClone.at(-1)).toMatchObject({ status: 'available', progress: '100%' });
    const percents = ofClone
      .filter((change) => change.status === 'creating_from_snapshot')
      .map((change) => Number.parseInt(change.progress ?? '', 10));
    // Pushed as the projection applied each ShareCreationProgressed: rising, several steps.
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(new Set(percents.filter((p) => p > 0 && p < 100)).size).toBeGreaterThan(1);
  }, 60_000);
});

describe('following a share migration over a GraphQL subscription', () => {
  let hawser: HawserTestServer;
  let admin: Client;

  // Local back ends with real directories; copies across pools capped at 2 MiB/s.
  beforeAll(async () => {
    hawser = await startMigrationHawser();
    await createShareType(hawser, 'anywhere');
    admin = graphqlSocket(hawser.url);
  }, 60_000);
  afterAll(async () => {
    await admin.dispose();
    await hawser.close();
  });

  it('receives the progress from 0 to 100 through the copy and each task state until migration_success', async () => {
    const m = migrationSteps(hawser);
    // 6 MiB at 2 MiB/s: the copy reports progress for about three seconds.
    const source = await m.shareWithData('anywhere', 6 * 1024 * 1024);
    const target =
      (await m.show(source.shareId)).host === CHARLIE ? 'node-az1@alpha#pool2' : CHARLIE;

    const changes = await changesUntil<MigrationChange>(
      hawser,
      admin,
      `subscription($id: ID!) { shareChanged(id: $id) { shareId status progress share { taskState host } } }`,
      { id: source.shareId },
      (change) => change.share?.taskState === 'migration_success',
      async () => {
        expect((await m.start(source.shareId, target)).status).toBe(202);
        await m.waitForTaskState(source.shareId, 'data_copying_completed');
        const completed = await m.action(source.shareId, { migration_complete: null });
        expect(completed.status).toBe(202);
      },
    );

    expect(changes.every((change) => change.shareId === source.shareId)).toBe(true);
    const migrating = changes.filter((change) => change.status === 'migrating');
    const percents = migrating.map((change) => Number.parseInt(change.progress ?? '', 10));
    // From 0 when the migration starts to 100 when its first phase is done, never falling,
    // with the copy's own steps between them.
    expect(percents[0]).toBe(0);
    expect(percents.at(-1)).toBe(100);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(new Set(percents.filter((p) => p > 0 && p < 100)).size).toBeGreaterThan(1);
    const copying = migrating.filter((c) => c.share?.taskState === 'data_copying_in_progress');
    expect(copying.length).toBeGreaterThan(1);

    // Each task state pushed in Manila's order (a commit may carry two steps at once).
    const taskStates = [...new Set(changes.map((change) => change.share?.taskState ?? null))];
    const order = [
      'migration_starting',
      'migration_in_progress',
      'data_copying_starting',
      'data_copying_in_progress',
      'data_copying_completed',
      'migration_completing',
      'migration_success',
    ];
    expect(taskStates.every((state) => state !== null && order.includes(state))).toBe(true);
    const positions = taskStates.map((state) => order.indexOf(state as string));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(taskStates).toEqual(
      expect.arrayContaining(['data_copying_in_progress', 'data_copying_completed']),
    );
    expect(changes.at(-1)).toMatchObject({
      status: 'available',
      progress: '100%',
      share: { taskState: 'migration_success', host: target },
    });
  }, 90_000);
});
