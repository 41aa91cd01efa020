import type { EventStore } from '#hawser/eventstore';
import { EVENT_STORE } from '#hawser/platform';
import {
  eventually,
  startHawser,
  type HawserTestServer,
} from './test-support/hawser-test-server.js';

const PROJECT = '66666666666666666666666666666666';
const ALICE = `alice:${PROJECT}:member,reader`;
const BOB = `bob:${PROJECT}:member,reader`;
const FRESH = '77777777777777777777777777777777';

/** Quotas per user and per share type (2.39 onwards) and quota classes, over HTTP. */
describe('quotas per user, per share type, and quota classes over HTTP', () => {
  let hawser: HawserTestServer;
  let events: EventStore;

  beforeAll(async () => {
    hawser = await startHawser();
    events = hawser.app.get<symbol, EventStore>(EVENT_STORE);
    for (const name of ['default', 'gold']) {
      const created = await hawser.request('POST', '/v2/types', {
        share_type: { name, extra_specs: { driver_handles_share_servers: 'false' } },
      });
      expect(created.status).toBe(200);
    }
  });
  afterAll(() => hawser.close());

  const quota = (
    method: string,
    query: string,
    body?: Record<string, unknown>,
    version = '2.62',
    path = `/v2/quota-sets/${PROJECT}`,
  ) => hawser.request(method, `${path}${query}`, body && { quota_set: body }, { version });
  const createShare = (token: string, size: number, type = 'default') =>
    hawser.request(
      'POST',
      '/v2/shares',
      { share: { share_proto: 'NFS', size, share_type: type } },
      { token },
    );
  const available = (id: string) =>
    eventually(async () => {
      const shown = await hawser.request('GET', `/v2/shares/${id}`);
      return shown.body.share.status === 'available' ? true : undefined;
    });

  describe("a user's quotas", () => {
    it("are the project's until set, then bound that user's requests only", async () => {
      expect((await quota('GET', '?user_id=alice')).body.quota_set).toMatchObject({
        id: PROJECT,
        shares: 50,
        gigabytes: 1000,
      });
      const set = await quota('PUT', '?user_id=alice', { shares: 1 });
      expect(set.status).toBe(200);
      expect(set.body.quota_set).not.toHaveProperty('id');
      expect(set.body.quota_set).toMatchObject({ shares: 1, share_networks: 10 });

      expect((await createShare(ALICE, 1)).status).toBe(200);
      const refused = await createShare(ALICE, 1);
      expect(refused.status).toBe(413);
      expect(refused.body.overLimit.message).toBe(
        'ShareLimitExceeded: Maximum number of shares allowed (1) exceeded.',
      );
      expect((await createShare(BOB, 1)).status).toBe(200);

      const detail = await quota('GET', '/detail?user_id=alice');
      expect(detail.body.quota_set.shares).toEqual({ limit: 1, in_use: 1, reserved: 0 });
      const project = await quota('GET', '/detail');
      expect(project.body.quota_set.shares).toEqual({ limit: 50, in_use: 2, reserved: 0 });
    });

    it("refuse a limit above the project's as Manila does, unless forced", async () => {
      const head = await events.headPosition();
      const above = await quota('PUT', '?user_id=alice', { shares: 60 });
      expect(above.status).toBe(400);
      expect(above.body.badRequest.message).toBe('Quota limit must be less than 50.');
      const below = await quota('PUT', '?user_id=alice', { shares: 0 });
      expect(below.body.badRequest.message).toBe(
        'Quota value 0 for shares is smaller than already used and reserved 1.',
      );
      expect(await events.headPosition()).toBe(head);
      expect((await quota('PUT', '?user_id=alice', { shares: 60, force: true })).status).toBe(200);
    });

    it("go back to the project's when deleted", async () => {
      expect((await quota('DELETE', '?user_id=alice')).status).toBe(202);
      expect((await quota('GET', '?user_id=alice')).body.quota_set.shares).toBe(50);
    });
  });

  describe("a share type's quotas", () => {
    it('exist from 2.39: before, naming a share type is a 400', async () => {
      const message =
        "'share_type' key is not supported by this microversion. Use 2.39 or greater " +
        "microversion to be able to use 'share_type' quotas.";
      for (const [method, body] of [
        ['GET', undefined],
        ['PUT', { shares: 5 }],
        ['DELETE', undefined],
      ] as const) {
        const old = await quota(method, '?share_type=gold', body, '2.38');
        expect(old.status).toBe(400);
        expect(old.body.badRequest.message).toBe(message);
      }
      const legacy = await quota(
        'GET',
        '?share_type=gold',
        undefined,
        '2.6',
        '/v2/os-quota-sets/' + PROJECT,
      );
      expect(legacy.status).toBe(400);
    });

    it('refuse a user and a type together, an unknown type, share networks and groups', async () => {
      const head = await events.headPosition();
      const both = await quota('PUT', '?user_id=alice&share_type=gold', { shares: 5 });
      expect(both.body.badRequest.message).toBe(
        "'user_id' and 'share_type' values are mutually exclusive",
      );
      const unknown = await quota('GET', '?share_type=nope');
      expect(unknown.status).toBe(404);
      expect(unknown.body.itemNotFound.message).toBe(
        "Share type with name or id 'nope' not found.",
      );
      const networks = await quota('PUT', '?share_type=gold', { share_networks: 5 });
      expect(networks.body.badRequest.message).toBe(
        "'share_networks' quota cannot be set for share type. It can be set only for project or user.",
      );
      const groups = await quota('PUT', '?share_type=gold', { share_groups: 5 });
      expect(groups.body.badRequest.message).toBe(
        'Share type quotas cannot constrain share groups and share group snapshots.',
      );
      expect(await events.headPosition()).toBe(head);
    });

    it("bound the type's shares whoever asks, and show no share network or group keys", async () => {
      const set = await quota('PUT', '?share_type=gold', { gigabytes: 3 });
      expect(set.status).toBe(200);
      expect(Object.keys(set.body.quota_set).sort()).toEqual(
        [
          'gigabytes',
          'per_share_gigabytes',
          'replica_gigabytes',
          'share_replicas',
          'shares',
          'snapshot_gigabytes',
          'snapshots',
        ].sort(),
      );
      const gold = await createShare(ALICE, 2, 'gold');
      expect(gold.status).toBe(200);
      expect((await createShare(BOB, 2, 'gold')).body.overLimit.message).toMatch(
        /^ShareSizeExceedsAvailableQuota: /,
      );
      expect((await createShare(BOB, 2)).status).toBe(200);
      const detail = await quota('GET', '/detail?share_type=gold');
      expect(detail.body.quota_set.gigabytes).toEqual({ limit: 3, in_use: 2, reserved: 0 });

      // Deleting the share gives its gigabytes back to the type.
      await available(gold.body.share.id);
      expect(
        (
          await hawser.request('DELETE', `/v2/shares/${gold.body.share.id}`, undefined, {
            token: ALICE,
          })
        ).status,
      ).toBe(202);
      await eventually(
        async () =>
          (await quota('GET', '/detail?share_type=gold')).body.quota_set.gigabytes.in_use === 0
            ? true
            : undefined,
        5_000,
        "the type's quota to be released",
      );
    });

    it("go back to the project's when deleted by name", async () => {
      expect((await quota('DELETE', '?share_type=gold')).status).toBe(202);
      expect((await quota('GET', '?share_type=gold')).body.quota_set.gigabytes).toBe(1000);
    });
  });

  describe('quota classes', () => {
    const classSet = (
      method: string,
      body?: Record<string, unknown>,
      version = '2.62',
      token?: string,
    ) =>
      hawser.request(
        method,
        `/v2/${version === '2.6' ? 'os-quota-class-sets' : 'quota-class-sets'}/default`,
        body && { quota_class_set: body },
        { version, token },
      );

    it("show the configured defaults, with the microversion's keys", async () => {
      const keys = async (version: string) =>
        Object.keys((await classSet('GET', undefined, version)).body.quota_class_set).sort();
      const base = [
        'gigabytes',
        'id',
        'share_networks',
        'shares',
        'snapshot_gigabytes',
        'snapshots',
      ];
      expect(await keys('2.6')).toEqual(base.sort());
      expect(await keys('2.7')).toEqual(base.sort());
      expect(await keys('2.40')).toEqual([...base, 'share_groups', 'share_group_snapshots'].sort());
      expect(await keys('2.53')).toEqual(
        [
          ...base,
          'share_groups',
          'share_group_snapshots',
          'share_replicas',
          'replica_gigabytes',
        ].sort(),
      );
      expect((await classSet('GET')).body.quota_class_set).toMatchObject({
        id: 'default',
        shares: 50,
        per_share_gigabytes: -1,
      });
    });

    it("are an admin's: a member may neither read nor set them", async () => {
      expect((await classSet('GET', undefined, '2.62', ALICE)).status).toBe(403);
      expect((await classSet('PUT', { shares: 1 }, '2.62', ALICE)).status).toBe(403);
    });

    it('set the default class, which every project without its own limits then has', async () => {
      const set = await classSet('PUT', { shares: 2, bogus: 1 });
      expect(set.status).toBe(200);
      expect(set.body.quota_class_set).not.toHaveProperty('id');
      expect(set.body.quota_class_set.shares).toBe(2);
      const defaults = await hawser.request('GET', `/v2/quota-sets/${FRESH}/defaults`);
      expect(defaults.body.quota_set.shares).toBe(2);
      expect((await hawser.request('GET', `/v2/quota-sets/${FRESH}`)).body.quota_set.shares).toBe(
        2,
      );

      const fresh = `dave:${FRESH}:member`;
      expect((await createShare(fresh, 1)).status).toBe(200);
      expect((await createShare(fresh, 1)).status).toBe(200);
      expect((await createShare(fresh, 1)).body.overLimit.message).toBe(
        'ShareLimitExceeded: Maximum number of shares allowed (2) exceeded.',
      );
      expect((await classSet('PUT', { shares: 'many' })).status).toBe(400);
      expect((await classSet('PUT', { shares: 50 })).status).toBe(200);
    });
  });
});
