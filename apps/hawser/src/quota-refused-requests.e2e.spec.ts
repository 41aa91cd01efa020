import type { EventStore } from '#hawser/eventstore';
import { EVENT_STORE } from '#hawser/platform';
import {
  eventually,
  startHawser,
  type HawserTestServer,
} from './test-support/hawser-test-server.js';
import { availableReadableShare, createReadableType } from './test-support/replicated-share.js';

const PROJECT = '77777777777777777777777777777777';
const TOKEN = `admin:${PROJECT}`;

/** Metadata every create refuses for its input alone (reference 3.4: Manila's limits). */
const BAD_METADATA: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
  ['an empty key', { '': 'v' }],
  ['a 300-character key', { ['k'.repeat(300)]: 'v' }],
  ['a 1,100-character value', { k: 'v'.repeat(1100) }],
  ['a value that is not a string', { k: 5 }],
];

describe('a request refused for its input writes nothing (given a replicated share, a snapshot of it, and a share in error)', () => {
  let hawser: HawserTestServer;
  let events: EventStore;
  let shareId: string;
  let snapshotId: string;
  let brokenShareId: string;

  const call = (method: string, route: string, body?: unknown) =>
    hawser.request(method, route, body, { token: TOKEN, version: '2.73' });
  beforeAll(async () => {
    hawser = await startHawser();
    events = hawser.app.get<symbol, EventStore>(EVENT_STORE);
    await createReadableType(call, { create_share_from_snapshot_support: 'true' });
    shareId = await availableReadableShare(call, 10_000);
    const snapshot = await call('POST', '/v2/snapshots', { snapshot: { share_id: shareId } });
    expect(snapshot.status).toBe(202);
    snapshotId = snapshot.body.snapshot.id;
    await eventually(
      async () =>
        (await call('GET', `/v2/snapshots/${snapshotId}`)).body.snapshot.status === 'available'
          ? true
          : undefined,
      10_000,
      'the snapshot to be available',
    );
    brokenShareId = await availableReadableShare(call, 10_000);
    const reset = await call('POST', `/v2/shares/${brokenShareId}/action`, {
      reset_status: { status: 'error' },
    });
    expect(reset.status).toBe(202);
  }, 60_000);
  afterAll(() => hawser.close());

  /** The request's answer, and every event the log gained while it was handled. */
  const refused = async (method: string, route: string, body: unknown) => {
    const before = await events.headPosition();
    const response = await call(method, route, body);
    const appended = await events.readAll({ after: before });
    return { status: response.status, appended: appended.map((e) => `${e.streamId} ${e.type}`) };
  };

  it.each(BAD_METADATA)(
    'when a share is asked for with %s in its metadata, then it is a 400 and the log gains no event',
    async (_, metadata) => {
      expect(
        await refused('POST', '/v2/shares', {
          share: { share_proto: 'NFS', size: 1, share_type: 'readable', metadata },
        }),
      ).toEqual({ status: 400, appended: [] });
    },
  );

  it.each(BAD_METADATA)(
    'when a share from the snapshot is asked for with %s in its metadata, then it is a 400 and the log gains no event',
    async (_, metadata) => {
      expect(
        await refused('POST', '/v2/shares', {
          share: { share_proto: 'NFS', snapshot_id: snapshotId, metadata },
        }),
      ).toEqual({ status: 400, appended: [] });
    },
  );

  it.each(BAD_METADATA)(
    'when a snapshot is asked for with %s in its metadata, then it is a 400 and the log gains no event',
    async (_, metadata) => {
      expect(
        await refused('POST', '/v2/snapshots', { snapshot: { share_id: shareId, metadata } }),
      ).toEqual({ status: 400, appended: [] });
    },
  );

  it('when a replica is asked for of a share in error, then it is a 400 and the log gains no event', async () => {
    expect(
      await refused('POST', '/v2/share-replicas', {
        share_replica: { share_id: brokenShareId, availability_zone: 'az-2' },
      }),
    ).toEqual({ status: 400, appended: [] });
  });

  it('when an extend is asked for beyond the sizes any back end holds, then it is a 400 and the log gains no event', async () => {
    expect(
      await refused('POST', `/v2/shares/${shareId}/action`, {
        extend: { new_size: 2 ** 53 },
      }),
    ).toEqual({ status: 400, appended: [] });
  });

  it('and the quota still counts exactly what exists', async () => {
    const quota = (await call('GET', `/v2/quota-sets/${PROJECT}/detail`)).body.quota_set;
    expect({
      shares: quota.shares.in_use,
      gigabytes: quota.gigabytes.in_use,
      snapshots: quota.snapshots.in_use,
      snapshot_gigabytes: quota.snapshot_gigabytes.in_use,
      share_replicas: quota.share_replicas.in_use,
      replica_gigabytes: quota.replica_gigabytes.in_use,
    }).toEqual({
      shares: 2,
      gigabytes: 2,
      snapshots: 1,
      snapshot_gigabytes: 1,
      share_replicas: 2,
      replica_gigabytes: 2,
    });
  });
});
