import type { EventStore } from '#hawser/eventstore';
import { EVENT_STORE } from '#hawser/platform';
import {
  eventually,
  startHawser,
  type HawserTestServer,
} from './test-support/hawser-test-server.js';
import { simulatedBackends } from './test-support/simulated-backends.js';

const PROJECT = '44444444444444444444444444444444';
const MEMBER = `alice:${PROJECT}:member,reader`;
const CROWD = '55555555555555555555555555555555';
const CROWD_MEMBER = `carol:${CROWD}:member`;

describe('quota sets over HTTP (given a share type)', () => {
  let hawser: HawserTestServer;
  let events: EventStore;

  beforeAll(async () => {
    hawser = await startHawser();
    events = hawser.app.get<symbol, EventStore>(EVENT_STORE);
    const created = await hawser.request('POST', '/v2/types', {
      share_type: { name: 'default', extra_specs: { driver_handles_share_servers: 'false' } },
    });
    expect(created.status).toBe(200);
  });
  afterAll(() => hawser.close());

  const createShare = (token: string, size = 1) =>
    hawser.request(
      'POST',
      '/v2/shares',
      { share: { share_proto: 'NFS', size, share_type: 'default' } },
      { token },
    );
  const setQuota = (project: string, quotaSet: Record<string, unknown>, version?: string) =>
    hawser.request('PUT', `/v2/quota-sets/${project}`, { quota_set: quotaSet }, { version });
  const detail = async (project: string) =>
    (await hawser.request('GET', `/v2/quota-sets/${project}/detail`)).body.quota_set;

  it('shows Manila defaults to the project, and refuses other projects to non-admins', async () => {
    const own = await hawser.request('GET', `/v2/quota-sets/${PROJECT}`, undefined, {
      token: MEMBER,
    });
    expect(own.status).toBe(200);
    expect(own.body.quota_set).toEqual({
      id: PROJECT,
      shares: 50,
      gigabytes: 1000,
      snapshots: 50,
      snapshot_gigabytes: 1000,
      share_networks: 10,
      share_groups: 50,
      share_group_snapshots: 50,
      share_replicas: 100,
      replica_gigabytes: 1000,
      per_share_gigabytes: -1,
    });
    const old = await hawser.request('GET', `/v2/quota-sets/${PROJECT}/defaults`, undefined, {
      token: MEMBER,
      version: '2.39',
    });
    expect(Object.keys(old.body.quota_set).sort()).toEqual(
      ['gigabytes', 'id', 'share_networks', 'shares', 'snapshot_gigabytes', 'snapshots'].sort(),
    );
    const other = await hawser.request('GET', `/v2/quota-sets/${CROWD}`, undefined, {
      token: MEMBER,
    });
    expect(other.status).toBe(403);
    const both = await hawser.request(
      'GET',
      `/v2/quota-sets/${PROJECT}?user_id=u&share_type=t`,
      undefined,
      { token: MEMBER },
    );
    expect(both.status).toBe(400);
  });

  it('validates PUT as Manila does, admin only', async () => {
    const member = await hawser.request(
      'PUT',
      `/v2/quota-sets/${PROJECT}`,
      { quota_set: { shares: 5 } },
      { token: MEMBER },
    );
    expect(member.status).toBe(403);
    expect((await setQuota(PROJECT, { shares: 5, bogus: 1 })).body.badRequest.message).toBe(
      'Bad key(s) in quota set: bogus',
    );
    expect((await setQuota(PROJECT, { shares: 'many' })).status).toBe(400);
    expect((await setQuota(PROJECT, { shares: -2 })).status).toBe(400);
    expect((await setQuota(PROJECT, { share_replicas: 5 }, '2.52')).status).toBe(400);
    const updated = await setQuota(PROJECT, { shares: '7', gigabytes: 70 });
    expect(updated.status).toBe(200);
    expect(updated.body.quota_set).not.toHaveProperty('id');
    expect(updated.body.quota_set).toMatchObject({ shares: 7, gigabytes: 70, snapshots: 50 });
  });

  it('refuses a share over the quota with 413, writing nothing, and releases on delete', async () => {
    expect((await setQuota(PROJECT, { shares: 1, gigabytes: 10 })).status).toBe(200);
    const first = await createShare(MEMBER, 4);
    expect(first.status).toBe(200);
    expect(await detail(PROJECT)).toMatchObject({
      shares: { limit: 1, in_use: 1, reserved: 0 },
      gigabytes: { limit: 10, in_use: 4, reserved: 0 },
    });
    // A limit below what is used needs force.
    const below = await setQuota(PROJECT, { gigabytes: 3 });
    expect(below.status).toBe(400);
    expect(below.body.badRequest.message).toBe(
      'Quota value 3 for gigabytes is smaller than already used and reserved 4.',
    );

    const head = await events.headPosition();
    const refused = await createShare(MEMBER, 1);
    expect(refused.status).toBe(413);
    expect(refused.headers.get('retry-after')).toBe('0');
    expect(refused.body).toEqual({
      overLimit: {
        code: 413,
        message: 'ShareLimitExceeded: Maximum number of shares allowed (1) exceeded.',
        retryAfter: '0',
      },
    });
    expect(await events.headPosition()).toBe(head);
    const listed = await hawser.request('GET', '/v2/shares', undefined, { token: MEMBER });
    expect(listed.body.shares).toHaveLength(1);

    await eventually(async () => {
      const show = await hawser.request('GET', `/v2/shares/${first.body.share.id}`, undefined, {
        token: MEMBER,
      });
      return show.body.share.status === 'available' ? true : undefined;
    });
    expect(
      (
        await hawser.request('DELETE', `/v2/shares/${first.body.share.id}`, undefined, {
          token: MEMBER,
        })
      ).status,
    ).toBe(202);
    await eventually(
      async () => ((await detail(PROJECT)).shares.in_use === 0 ? true : undefined),
      5_000,
      'the quota to be released',
    );
    expect((await detail(PROJECT)).gigabytes.in_use).toBe(0);
    expect((await createShare(MEMBER, 1)).status).toBe(200);
  });

  it('lets exactly the limit of concurrent creates through', async () => {
    expect((await setQuota(CROWD, { shares: 3 })).status).toBe(200);
    const results = await Promise.all(Array.from({ length: 8 }, () => createShare(CROWD_MEMBER)));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 200, 413, 413, 413, 413, 413]);
    expect((await detail(CROWD)).shares.in_use).toBe(3);
  });

  it('refuses an update that names no limit, as Manila does, and records nothing', async () => {
    const before = await hawser.request('GET', '/hawser/v1/events?limit=1000&stream_prefix=quota-');
    const empty = await hawser.request('PUT', `/v2/quota-sets/${PROJECT}`, { quota_set: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.badRequest.message).toBe('Must supply at least one quota field to update.');
    const after = await hawser.request('GET', '/hawser/v1/events?limit=1000&stream_prefix=quota-');
    expect(after.body.events).toHaveLength(before.body.events.length);
  });

  it("shows the caller's project's absolute limits, with the microversion's resources", async () => {
    const now = await hawser.request('GET', '/v2/limits', undefined, { token: CROWD_MEMBER });
    expect(now.status).toBe(200);
    expect(now.body.limits.rate).toEqual([]);
    expect(now.body.limits.absolute).toMatchObject({
      maxTotalShares: 3,
      totalSharesUsed: 3,
      maxTotalShareGigabytes: 1000,
      totalShareGigabytesUsed: 3,
      maxTotalShareReplicas: 100,
      totalShareReplicasUsed: 0,
    });
    const old = await hawser.request('GET', `/v2/${CROWD}/limits`, undefined, {
      token: CROWD_MEMBER,
      version: '2.39',
    });
    expect(Object.keys(old.body.limits.absolute).sort()).toEqual(
      [
        'maxTotalShareGigabytes',
        'maxTotalShareNetworks',
        'maxTotalShareSnapshots',
        'maxTotalShares',
        'maxTotalSnapshotGigabytes',
        'totalShareGigabytesUsed',
        'totalShareNetworksUsed',
        'totalShareSnapshotsUsed',
        'totalSharesUsed',
        'totalSnapshotGigabytesUsed',
      ].sort(),
    );
  });

  it('goes back to the defaults on DELETE', async () => {
    const removed = await hawser.request('DELETE', `/v2/quota-sets/${CROWD}`);
    expect(removed.status).toBe(202);
    expect((await detail(CROWD)).shares).toEqual({ limit: 50, in_use: 3, reserved: 0 });
  });
});

describe('quota of snapshots, extends and shrinks (given a share whose first extend fails)', () => {
  const OWNER = '66666666666666666666666666666666';
  const OWNER_MEMBER = `dave:${OWNER}:member`;
  let hawser: HawserTestServer;
  let events: EventStore;
  let shareId: string;

  beforeAll(async () => {
    hawser = await startHawser({
      backends: () => simulatedBackends({ failures: [{ operation: 'extendShare', nthCall: 1 }] }),
    });
    events = hawser.app.get<symbol, EventStore>(EVENT_STORE);
    await hawser.request('POST', '/v2/types', {
      share_type: {
        name: 'snappy',
        extra_specs: { driver_handles_share_servers: 'false', snapshot_support: 'true' },
      },
    });
    const quota = { snapshots: 1, snapshot_gigabytes: 10, gigabytes: 6 };
    expect(
      (await hawser.request('PUT', `/v2/quota-sets/${OWNER}`, { quota_set: quota })).status,
    ).toBe(200);
    const created = await hawser.request(
      'POST',
      '/v2/shares',
      { share: { share_proto: 'NFS', size: 2, share_type: 'snappy' } },
      { token: OWNER_MEMBER },
    );
    shareId = created.body.share.id;
    await settled('available');
  });
  afterAll(() => hawser.close());

  const usage = async () =>
    (await hawser.request('GET', `/v2/quota-sets/${OWNER}/detail`)).body.quota_set;
  const share = async () =>
    (await hawser.request('GET', `/v2/shares/${shareId}`, undefined, { token: OWNER_MEMBER })).body
      .share;
  const settled = (status: string) =>
    eventually(async () => ((await share()).status === status ? true : undefined), 5_000, status);
  const action = (body: unknown) =>
    hawser.request('POST', `/v2/shares/${shareId}/action`, body, { token: OWNER_MEMBER });
  const resetStatus = () =>
    hawser.request('POST', `/v2/shares/${shareId}/action`, {
      reset_status: { status: 'available' },
    });

  it('counts a snapshot, refuses the next over the limit with 413 and nothing written, and releases on delete', async () => {
    const first = await hawser.request(
      'POST',
      '/v2/snapshots',
      { snapshot: { share_id: shareId, name: 'one' } },
      { token: OWNER_MEMBER },
    );
    expect(first.status).toBe(202);
    expect(await usage()).toMatchObject({
      snapshots: { limit: 1, in_use: 1 },
      snapshot_gigabytes: { limit: 10, in_use: 2 },
    });

    const head = await events.headPosition();
    const second = await hawser.request(
      'POST',
      '/v2/snapshots',
      { snapshot: { share_id: shareId, name: 'two' } },
      { token: OWNER_MEMBER },
    );
    expect(second.status).toBe(413);
    expect(second.body.overLimit.message).toBe(
      'SnapshotLimitExceeded: Maximum number of snapshots allowed (1) exceeded.',
    );
    expect(await events.headPosition()).toBe(head);

    const snapshotId = first.body.snapshot.id as string;
    await eventually(async () => {
      const shown = await hawser.request('GET', `/v2/snapshots/${snapshotId}`, undefined, {
        token: OWNER_MEMBER,
      });
      return shown.body.snapshot.status === 'available' ? true : undefined;
    });
    const deleted = await hawser.request('DELETE', `/v2/snapshots/${snapshotId}`, undefined, {
      token: OWNER_MEMBER,
    });
    expect(deleted.status).toBe(202);
    await eventually(
      async () => ((await usage()).snapshots.in_use === 0 ? true : undefined),
      5_000,
      'the snapshot quota to be released',
    );
    expect((await usage()).snapshot_gigabytes.in_use).toBe(0);
  });

  it("answers an extend over the project's gigabytes with Manila's 403, changing nothing", async () => {
    const head = await events.headPosition();
    const refused = await action({ extend: { new_size: 7 } });
    expect(refused.status).toBe(403);
    // Manila's API catches this one, so its message has no class name before it (a create's does).
    expect(refused.body.forbidden.message).toBe(
      'Requested share exceeds allowed project/user or share type gigabytes quota.',
    );
    expect(await events.headPosition()).toBe(head);
    expect((await usage()).gigabytes.in_use).toBe(2);
    expect((await share()).status).toBe('available');
  });

  it('gives back what a failed extend counted', async () => {
    const extended = await action({ extend: { new_size: 5 } });
    expect(extended.status).toBe(202);
    await settled('extending_error');
    const quotaEvents = await events.readStream(`quota-${OWNER}`);
    expect(quotaEvents.slice(-2).map((e) => [e.type, e.data])).toEqual([
      ['QuotaAdjusted', expect.objectContaining({ holderId: shareId, deltas: { gigabytes: 3 } })],
      [
        'QuotaAdjustmentReverted',
        expect.objectContaining({ holderId: shareId, deltas: { gigabytes: 3 } }),
      ],
    ]);
    await eventually(
      async () => ((await usage()).gigabytes.in_use === 2 ? true : undefined),
      5_000,
      'the failed extend to be given back',
    );
    expect((await share()).size).toBe(2);
    expect((await resetStatus()).status).toBe(202);
  });

  it('keeps what a successful extend counted, and counts less once a shrink is done', async () => {
    const extended = await action({ extend: { new_size: 6 } });
    expect(extended.status).toBe(202);
    await settled('available');
    expect((await share()).size).toBe(6);
    expect((await usage()).gigabytes.in_use).toBe(6);

    expect((await action({ shrink: { new_size: 3 } })).status).toBe(202);
    await settled('available');
    expect((await share()).size).toBe(3);
    await eventually(
      async () => ((await usage()).gigabytes.in_use === 3 ? true : undefined),
      5_000,
      'the shrink to count fewer gigabytes',
    );
  });
});
