import {
  eventually,
  startHawser,
  type HawserTestServer,
} from './test-support/hawser-test-server.js';
import { backendsWithOneBigPool, BIG_POOL as BIG } from './test-support/simulated-backends.js';

/*
 * Scheduler hints (reference 7) over HTTP: the seed's example (a share anti-affine to three
 * others, metadata on all four, cleanup on deletion), same_host placement, impossible
 * combinations, and requests refused before anything is written.
 */

const PROJECT = '44444444444444444444444444444444';
const MEMBER = `alice:${PROJECT}:member,reader`;
const OTHER = 'bob:55555555555555555555555555555555:member,reader';
const SAME = '__affinity_same_host';
const DIFFERENT = '__affinity_different_host';

describe('scheduler hints over HTTP (microversion 2.65+)', () => {
  let hawser: HawserTestServer;

  beforeAll(async () => {
    hawser = await startHawser({ backends: backendsWithOneBigPool });
    for (const [name, specs] of [
      ['default', {}],
      ['readable', { replication_type: 'readable' }],
    ] as const) {
      const type = await hawser.request('POST', '/v2/types', {
        share_type: { name, extra_specs: { driver_handles_share_servers: 'false', ...specs } },
      });
      expect(type.status).toBe(200);
    }
  });
  afterAll(() => hawser.close());

  const create = (share: Record<string, unknown>, token = MEMBER, version?: string) =>
    hawser.request(
      'POST',
      '/v2/shares',
      { share: { share_proto: 'NFS', size: 1, share_type: 'default', ...share } },
      { token, version },
    );
  /** The share as an admin sees it (with its host). */
  const show = async (id: string) => (await hawser.request('GET', `/v2/shares/${id}`)).body.share;
  const settled = (id: string) =>
    eventually(
      async () => {
        const share = await show(id);
        return ['available', 'error'].includes(share?.status) ? share : undefined;
      },
      10_000,
      `share ${id} to settle`,
    );
  const metadataOf = async (id: string, token = MEMBER) =>
    (await hawser.request('GET', `/v2/shares/${id}/metadata`, undefined, { token })).body.metadata;
  const metadataBecomes = (id: string, expected: Record<string, string>) =>
    eventually(
      async () => {
        const metadata = await metadataOf(id);
        return JSON.stringify(metadata) === JSON.stringify(expected) ? metadata : undefined;
      },
      5_000,
      `metadata of ${id} to be ${JSON.stringify(expected)}`,
    );
  const deleteShare = async (id: string) => {
    const deleted = await hawser.request('DELETE', `/v2/shares/${id}`, undefined, {
      token: MEMBER,
    });
    expect(deleted.status).toBe(202);
    await eventually(
      async () =>
        (await hawser.request('GET', `/v2/shares/${id}`)).status === 404 ? true : undefined,
      10_000,
      `share ${id} to be deleted`,
    );
  };
  const newShare = async (share: Record<string, unknown> = {}, token = MEMBER) => {
    const created = await create(share, token);
    expect(created.status).toBe(200);
    return settled(created.body.share.id);
  };
  /** Position of the log's last event: nothing appended means it stays put. */
  const logEnd = async (): Promise<number> => {
    let after = 0;
    for (;;) {
      const page = await hawser.request('GET', `/hawser/v1/events?limit=1000&after=${after}`);
      const events = page.body.events as { position: number }[];
      if (events.length > 0) after = events[events.length - 1]!.position;
      if (page.body.next_after === null) return after;
    }
  };
  const quotaInUse = async () =>
    (await hawser.request('GET', `/v2/quota-sets/${PROJECT}/detail`)).body.quota_set;

  it('seed example: UUID4 anti-affine to UUID1-3 lands elsewhere, all four list each other, deletion unlinks', async () => {
    const [one, two, three] = [await newShare(), await newShare(), await newShare()];
    const ids = [one.id, two.id, three.id];
    expect([one.host, two.host, three.host]).toEqual([BIG, BIG, BIG]);

    const created = await create({ scheduler_hints: { different_host: ids.join(',') } });
    expect(created.status).toBe(200);
    const four = created.body.share;
    // The new share carries its hints from the start (reference 7.2).
    expect(four.metadata).toEqual({ [DIFFERENT]: ids.join(',') });
    const placed = await settled(four.id);
    expect(placed.status).toBe('available');
    expect(placed.host).toMatch(/^(east|west)@sim#/);
    expect(placed.host).not.toBe(BIG);

    // Each referenced share lists the new one, in its own stream; members can read the keys.
    for (const id of ids) await metadataBecomes(id, { [DIFFERENT]: four.id });
    const events = await hawser.request(
      'GET',
      `/hawser/v1/streams/share-${one.id}?direction=backwards&limit=1`,
    );
    const [linked] = events.body.events;
    expect(linked).toMatchObject({ type: 'ShareMetadataChanged', user_id: 'affinity' });
    const requested = await hawser.request('GET', `/hawser/v1/streams/share-${four.id}?limit=1`);
    expect(linked.causation_id).toBe(requested.body.events[0].id);

    await deleteShare(four.id);
    for (const id of ids) await metadataBecomes(id, {});
  });

  it('same_host: the new share goes to the exact pool of the one it names, both keep the link', async () => {
    // `first` keeps away from the big pool, where a share without hints would go.
    const anchor = await newShare();
    const first = await newShare({
      metadata: { team: 'db' },
      scheduler_hints: { different_host: anchor.id },
    });
    expect(first.host).not.toBe(BIG);
    const second = await newShare({ scheduler_hints: { same_host: first.id } });
    expect(second.status).toBe('available');
    expect(second.host).toBe(first.host);
    expect(second.metadata).toEqual({ [SAME]: first.id });
    await metadataBecomes(first.id, { team: 'db', [DIFFERENT]: anchor.id, [SAME]: second.id });

    // A third share naming both (as a list) joins them, and each keeps every link.
    const third = await newShare({ scheduler_hints: { same_host: [first.id, second.id] } });
    expect(third.host).toBe(first.host);
    await metadataBecomes(first.id, {
      team: 'db',
      [DIFFERENT]: anchor.id,
      [SAME]: `${second.id},${third.id}`,
    });
    await metadataBecomes(second.id, { [SAME]: `${first.id},${third.id}` });

    // Deleting the first removes it from the others' lists and leaves their own links.
    await deleteShare(first.id);
    await metadataBecomes(second.id, { [SAME]: third.id });
    await metadataBecomes(third.id, { [SAME]: second.id });
    await metadataBecomes(anchor.id, {});
  });

  it('an impossible combination ends in error with No valid host, hard AND', async () => {
    const left = await newShare();
    const right = await newShare({ scheduler_hints: { different_host: left.id } });
    expect([left.host, right.host]).toEqual([BIG, expect.stringMatching(/#(small|other)$/)]);

    for (const hints of [
      { same_host: `${left.id},${right.id}` },
      { same_host: left.id, different_host: left.id },
    ]) {
      const created = await create({ scheduler_hints: hints });
      expect(created.status).toBe(200);
      const failed = await settled(created.body.share.id);
      expect(failed.status).toBe('error');
      const messages = await eventually(async () => {
        const listed = await hawser.request(
          'GET',
          `/v2/messages?resource_id=${failed.id}`,
          undefined,
          { token: MEMBER },
        );
        return listed.body.messages?.length === 1 ? listed.body.messages : undefined;
      });
      expect(messages[0]).toMatchObject({ action_id: '001', detail_id: '002' });
      const events = await hawser.request('GET', `/hawser/v1/streams/share-${failed.id}`);
      const schedulingFailed = events.body.events.find(
        (e: { type: string }) => e.type === 'ShareSchedulingFailed',
      );
      expect(schedulingFailed.data.message).toMatch(
        /^No valid host was found\. Failed to find a weighted host, the last executed filter was (Anti)?AffinityFilter\.$/,
      );
    }
  });

  it('refuses malformed and unknown ids before writing anything: no share, no quota use, no metadata', async () => {
    const mine = await newShare();
    const theirs = await newShare({}, OTHER);
    const before = { end: await logEnd(), quota: await quotaInUse() };
    const refusals: [Record<string, unknown>, number, RegExp][] = [
      [{ same_host: 'not-a-uuid' }, 400, /not-a-uuid is not a valid uuid/],
      [{ different_host: `${mine.id},,${mine.id}` }, 400, /is not a valid uuid/],
      [{ same_host: '00000000-0000-4000-8000-000000000000' }, 404, /could not be found/],
      [{ different_host: [mine.id, theirs.id] }, 404, new RegExp(`Share ${theirs.id} could not`)],
      [{ same_host: 7 }, 400, /share id or a list/],
      [{ different_host: [mine.id, 7] }, 400, /share id or a list/],
      [{ only_host: 7 }, 400, /only_host/],
    ];
    for (const [hints, status, message] of refusals) {
      const refused = await create({ scheduler_hints: hints });
      expect({ hints, status: refused.status }).toEqual({ hints, status });
      expect(Object.values(refused.body)[0]).toMatchObject({ code: status, message });
    }
    const refusedMetadata = await create({ metadata: { [SAME]: mine.id } });
    expect(refusedMetadata.status).toBe(403);
    expect((await create({ scheduler_hints: [mine.id] })).status).toBe(400);
    expect(await logEnd()).toBe(before.end);
    expect(await quotaInUse()).toEqual(before.quota);
    expect(await metadataOf(mine.id)).toEqual({});
  });

  it("places by another project's public share without linking either share; ignores hints before 2.65", async () => {
    const shared = await newShare({ is_public: true }, 'admin:66666666666666666666666666666666');
    expect(shared.host).toBe(BIG);
    const apart = await newShare({ scheduler_hints: { different_host: shared.id } });
    expect(apart.host).not.toBe(BIG);
    expect(apart.metadata).toEqual({});
    // Links are written in log order: once a later share's link shows, the earlier one was handled.
    const later = await newShare({ scheduler_hints: { same_host: apart.id } });
    await metadataBecomes(apart.id, { [SAME]: later.id });
    expect(await metadataOf(shared.id)).toEqual({});
    const sharedStream = await hawser.request('GET', `/hawser/v1/streams/share-${shared.id}`);
    expect(sharedStream.status).toBe(200);
    expect(sharedStream.body.events.map((e: { type: string }) => e.type)).not.toContain(
      'ShareMetadataChanged',
    );

    const old = await create({ scheduler_hints: { same_host: 'not-a-uuid' } }, MEMBER, '2.64');
    expect(old.status).toBe(200);
    expect(old.body.share.metadata).toEqual({});
  });

  it('lets only admins change the affinity keys through the metadata API', async () => {
    const first = await newShare();
    const second = await newShare({ scheduler_hints: { same_host: first.id } });
    const asMember = (method: string, route: string, body?: unknown) =>
      hawser.request(method, `/v2/shares/${second.id}${route}`, body, { token: MEMBER });
    expect((await asMember('POST', '/metadata', { metadata: { [SAME]: 'x' } })).status).toBe(403);
    expect((await asMember('DELETE', `/metadata/${SAME}`)).status).toBe(403);
    // A member replacing all metadata keeps the admin-only keys.
    expect((await asMember('PUT', '/metadata', { metadata: { a: 'b' } })).body.metadata).toEqual({
      a: 'b',
      [SAME]: first.id,
    });
    const byAdmin = await hawser.request('DELETE', `/v2/shares/${second.id}/metadata/${SAME}`);
    expect(byAdmin.status).toBe(200);
    expect(await metadataOf(second.id)).toEqual({ a: 'b' });
  });

  it('a new replica keeps to the hints its share records (reference 7.4)', async () => {
    const anchor = await newShare({ share_type: 'readable' });
    const share = await newShare({
      share_type: 'readable',
      scheduler_hints: { different_host: anchor.id },
    });
    expect([anchor.host, share.host]).toEqual([BIG, expect.not.stringMatching(/#big$/)]);

    const requested = await hawser.request(
      'POST',
      '/v2/share-replicas',
      { share_replica: { share_id: share.id } },
      { token: MEMBER },
    );
    expect(requested.status).toBe(202);
    const replica = await eventually(
      async () => {
        const shown = await hawser.request(
          'GET',
          `/v2/share-replicas/${requested.body.share_replica.id}`,
        );
        return shown.body.share_replica?.host ? shown.body.share_replica : undefined;
      },
      10_000,
      'the replica to be placed',
    );
    // Not on the share's own pool (ShareReplicationFilter), nor on the big pool where it would
    // go without the share's different_host hint.
    expect(replica.host).not.toBe(share.host);
    expect(replica.host).not.toBe(BIG);

    // An admin's only_host (2.67+) overrides the hints: the big pool, which different_host forbids.
    const tooEarly = await hawser.request(
      'POST',
      '/v2/share-replicas',
      { share_replica: { share_id: share.id, scheduler_hints: { only_host: BIG } } },
      { version: '2.66' },
    );
    expect(tooEarly.status).toBe(400);
    const notAHint = await hawser.request(
      'POST',
      '/v2/share-replicas',
      { share_replica: { share_id: share.id, scheduler_hints: { same_host: anchor.id } } },
      { version: '2.67' },
    );
    expect(notAHint.status).toBe(400);
    const overridden = await hawser.request(
      'POST',
      '/v2/share-replicas',
      { share_replica: { share_id: share.id, scheduler_hints: { only_host: BIG } } },
      { version: '2.67' },
    );
    expect(overridden.status).toBe(202);
    const placed = await eventually(
      async () => {
        const shown = await hawser.request(
          'GET',
          `/v2/share-replicas/${overridden.body.share_replica.id}`,
        );
        return shown.body.share_replica?.host ? shown.body.share_replica : undefined;
      },
      10_000,
      'the overriding replica to be placed',
    );
    expect(placed.host).toBe(BIG);
  });

  it("only_host (2.67+) places an admin's share on that pool; ignored for members and before 2.67", async () => {
    const pool = 'west@sim#other';
    const hinted = (token?: string, version?: string) =>
      create({ scheduler_hints: { only_host: pool } }, token, version);
    const byAdmin = await hinted(`admin:${PROJECT}`);
    expect((await settled(byAdmin.body.share.id)).host).toBe(pool);
    expect(byAdmin.body.share.metadata).toEqual({});
    const byMember = await hinted(MEMBER);
    expect((await settled(byMember.body.share.id)).host).toBe(BIG);
    const tooEarly = await hinted(`admin:${PROJECT}`, '2.66');
    expect((await settled(tooEarly.body.share.id)).host).toBe(BIG);
  });
});
