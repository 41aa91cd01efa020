import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  capabilitiesOf,
  evolveShare,
  initialShareState,
  isActiveShare,
  type ShareEvent,
} from '#hawser/domain';
import {
  SHARE_COUNTS,
  SHARE_LISTING_INDEXES,
  SHARES,
  toShareRecord,
  type ShareRecord,
} from '#hawser/projections';
import {
  type DocumentWrite,
  type Filter,
  type FindOptions,
  type VersionedId,
} from '#hawser/read-models';
import { InterleavedStore } from '../../../read-models/src/test-support/interleaved-store.js';
import type { Caller, Reader } from '../requester.js';
import { ListShares, ListSharesHandler, type ShareListPage } from './list-shares.js';
import { ShareDocuments } from './share-documents.js';

const PROJECT = 'p1';
const SHARE_COUNT = 240;
const at = (second: number) => new Date(Date.UTC(2026, 10, 22, 10, 0, second)).toISOString();
const shareId = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;

/** Share i of a project: sizes and names repeat (ties), every third is available. */
const eventsOf = (i: number, projectId: string): ShareEvent[] => {
  const instanceId = `i-${projectId}-${i}`;
  const events: ShareEvent[] = [
    {
      type: 'ShareRequested',
      data: {
        shareId: `${projectId === PROJECT ? '' : 'x'}${shareId(i)}`,
        instanceId,
        projectId,
        userId: 'u1',
        // One in eleven has no name: nulls sort first.
        name: i % 11 === 0 ? null : `share-${i % 17}`,
        description: null,
        size: 1 + (i % 5),
        shareProto: 'NFS',
        shareType: { id: 't1', name: 'gold', extraSpecs: {} },
        capabilities: capabilitiesOf({}),
        availabilityZone: null,
        metadata: i % 4 === 0 ? { tier: 'gold' } : {},
        isPublic: i % 9 === 0,
        snapshotId: null,
        schedulerHints: null,
        // Creation times repeat too, every ten shares.
        createdAt: at(Math.floor(i / 10)),
      },
    },
  ];
  if (i % 3 === 0) {
    events.push({
      type: 'ShareScheduled',
      data: { instanceId, host: 'n@b#p', availabilityZone: 'az-1', size: 1, scheduledAt: at(0) },
    });
  }
  if (i % 13 === 0) {
    events.push({
      type: 'ShareSoftDeleted',
      data: { scheduledToBeDeletedAt: at(59), softDeletedAt: at(1) },
    });
  }
  return events;
};

const recordOf = (i: number, projectId: string): ShareRecord => {
  const state = eventsOf(i, projectId).reduce(evolveShare, initialShareState());
  if (!isActiveShare(state)) throw new Error('the events make an active share');
  return toShareRecord(state, eventsOf(i, projectId).length);
};

/** What a listing returns when computed the plain way, over every record in memory. */
const expectedIds = (
  records: readonly ShareRecord[],
  key: keyof ShareRecord,
  direction: 1 | -1,
  keep: (record: ShareRecord) => boolean,
): string[] =>
  records
    .filter(keep)
    .sort((a, b) => {
      // A stored record leaves its null fields out.
      const x = (a[key] ?? null) as string | number | null;
      const y = (b[key] ?? null) as string | number | null;
      if (x === y) return a.id < b.id ? -direction : direction;
      if (x === null) return -direction;
      if (y === null) return direction;
      return x < y ? -direction : direction;
    })
    .map((r) => r.id);

/** The store, recording what the listing asks of it so its plans can be read. */
class RecordingStore extends InterleavedStore {
  readonly asked: {
    filter: Filter | undefined;
    options: FindOptions & { count?: boolean; versionField?: string };
  }[] = [];

  override find<T extends { readonly id: string }>(
    collection: string,
    filter?: Filter,
    options?: FindOptions,
  ): Promise<T[]> {
    this.asked.push({ filter, options: options ?? {} });
    return super.find<T>(collection, filter, options);
  }

  override findVersions(
    collection: string,
    versionField: string,
    filter?: Filter,
    options?: FindOptions,
  ): Promise<VersionedId[]> {
    this.asked.push({ filter, options: { ...options, versionField } });
    return super.findVersions(collection, versionField, filter, options);
  }

  override count(collection: string, filter?: Filter): Promise<number> {
    this.asked.push({ filter, options: { count: true } });
    return super.count(collection, filter);
  }
}

describe('the share listing, answered by the store', () => {
  let dir: string;
  let store: RecordingStore;
  let records: ShareRecord[];
  const caller: Caller = { userId: 'u1', projectId: PROJECT, roles: ['member'], isAdmin: false };
  const reader: Reader = { caller, version: { major: 2, minor: 72, text: '2.72' } };
  const list = (query: Record<string, string>): Promise<ShareListPage> =>
    new ListSharesHandler(store, new ShareDocuments()).execute(new ListShares(query, reader));
  const listed = (record: ShareRecord) =>
    record.project_id === PROJECT && record.scheduled_to_be_deleted_at === undefined;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-list-shares-'));
    store = new RecordingStore({ file: path.join(dir, 'read-models.sqlite') });
    for (const fields of SHARE_LISTING_INDEXES) await store.ensureIndex(SHARES, fields);
    for (const fields of SHARE_COUNTS) await store.ensureCount(SHARES, fields);
    records = Array.from({ length: SHARE_COUNT }, (_, i) => recordOf(i, PROJECT));
    // Another project's shares, which the listing never shows.
    const others = Array.from({ length: 60 }, (_, i) => recordOf(i, 'p2'));
    await store.write(
      [...records, ...others].map((document) => ({ kind: 'put', collection: SHARES, document })),
    );
  });
  afterAll(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => store.asked.splice(0));

  it.each([
    ['created_at', 'desc'],
    ['created_at', 'asc'],
    ['size', 'desc'],
    ['size', 'asc'],
    ['name', 'asc'],
    ['name', 'desc'],
    ['status', 'asc'],
  ] as const)(
    'given a project of shares with ties and nulls, when sorted by %s %s and paged by offset, then the pages follow the order and the count is the whole listing',
    async (key, direction) => {
      const want = expectedIds(records, key, direction === 'asc' ? 1 : -1, listed);

      const first = await list({ sort_key: key, sort_dir: direction, limit: '25' });
      const deep = await list({ sort_key: key, sort_dir: direction, limit: '25', offset: '100' });

      expect(first.shares.map((s) => s.id)).toEqual(want.slice(0, 25));
      expect(deep.shares.map((s) => s.id)).toEqual(want.slice(100, 125));
      expect(await first.count()).toBe(want.length);
      expect(first.nextMarker).toBe(want[24]);
    },
  );

  it.each([
    ['created_at', 'desc'],
    ['size', 'asc'],
    ['size', 'desc'],
    ['name', 'asc'],
    ['name', 'desc'],
    ['id', 'asc'],
  ] as const)(
    'given a project of shares, when paged by marker sorted by %s %s, then the pages join up without a gap or an overlap',
    async (key, direction) => {
      const want = expectedIds(records, key, direction === 'asc' ? 1 : -1, listed);

      const seen: string[] = [];
      let marker: string | undefined;
      do {
        const page = await list({
          sort_key: key,
          sort_dir: direction,
          limit: '40',
          ...(marker && { marker }),
        });
        seen.push(...page.shares.map((s) => s.id));
        marker = page.nextMarker;
      } while (marker !== undefined);

      expect(seen).toEqual(want);
    },
  );

  it('given a listing, when its first and its last full page are listed without with_count, then the store counts nothing and only a page with more after it names a next marker', async () => {
    const want = expectedIds(records, 'created_at', -1, listed);
    const pageSize = 25;
    const lastStart = want.length - pageSize;

    const first = await list({ limit: String(pageSize) });
    const last = await list({ limit: String(pageSize), offset: String(lastStart) });

    expect(store.asked.filter(({ options }) => options.count)).toEqual([]);
    expect(first.nextMarker).toBe(want[pageSize - 1]);
    expect(last.shares.map((s) => s.id)).toEqual(want.slice(lastStart));
    expect(last.shares).toHaveLength(pageSize);
    expect(last.nextMarker).toBeUndefined();
  });

  it('given filters on status and name, when listed, then only matching shares are counted and shown', async () => {
    const available = await list({ status: 'creating', limit: '10' });
    const named = await list({ name: 'share-3', sort_key: 'size', sort_dir: 'asc' });

    const wantCreating = expectedIds(
      records,
      'created_at',
      -1,
      (r) => listed(r) && r.status === 'creating',
    );
    expect(await available.count()).toBe(wantCreating.length);
    expect(available.shares.map((s) => s.id)).toEqual(wantCreating.slice(0, 10));
    expect(named.shares.map((s) => s.id)).toEqual(
      expectedIds(records, 'size', 1, (r) => listed(r) && r.name === 'share-3'),
    );
  });

  it('given shares in the recycle bin, when the bin is listed, then only they are shown and counted', async () => {
    const bin = await list({ is_soft_deleted: 'true', limit: '100' });

    const want = expectedIds(
      records,
      'created_at',
      -1,
      (r) => r.scheduled_to_be_deleted_at !== undefined,
    );
    expect(bin.shares.map((s) => s.id)).toEqual(want);
    expect(await bin.count()).toBe(want.length);
  });

  it('given a metadata filter, which the store cannot answer, then the listing is still right', async () => {
    const gold = await list({ metadata: "{'tier': 'gold'}", limit: '5', offset: '3' });

    const want = expectedIds(
      records,
      'created_at',
      -1,
      (r) => listed(r) && r.metadata?.tier === 'gold',
    );
    expect(gold.shares.map((s) => s.id)).toEqual(want.slice(3, 8));
    expect(await gold.count()).toBe(want.length);
  });

  it("given the kept counts, when listed with_count, in the recycle bin and by status, then each count is read from them, not from the shares, and is the listing's", async () => {
    const binned = (record: ShareRecord) =>
      record.project_id === PROJECT && record.scheduled_to_be_deleted_at !== undefined;
    const counted = async (query: Record<string, string>) => {
      store.asked.splice(0);
      const count = await (await list({ ...query, limit: '5' })).count();
      const asked = store.asked.filter(({ options }) => options.count === true);
      return {
        count,
        plans: asked.map(({ filter }) =>
          store.queryPlan(SHARES, filter, { count: true }).join('\n'),
        ),
      };
    };

    const all = await counted({});
    const bin = await counted({ is_soft_deleted: 'true' });
    const available = await counted({ status: 'available' });

    expect(all.count).toBe(records.filter(listed).length);
    expect(bin.count).toBe(records.filter(binned).length);
    expect(available.count).toBe(
      records.filter((record) => listed(record) && record.status === 'available').length,
    );
    for (const { plans } of [all, bin, available]) {
      expect(plans).toEqual([
        expect.stringMatching(
          /USING INDEX counts:shares:project_id,scheduled_to_be_deleted_at,status:by:keys/,
        ),
      ]);
    }
  });

  it.each([
    [{ limit: '50' }],
    [{ limit: '50', sort_key: 'size' }],
    [{ limit: '50', sort_key: 'name', sort_dir: 'asc' }],
    [{ limit: '50', status: 'available' }],
    [{ limit: '50', offset: '120' }],
  ])(
    'given the declared indexes, when listed with %j, then the page of ids and revisions is read from an index alone',
    async (query) => {
      await list(query);

      const versionReads = store.asked.filter(({ options }) => options.versionField);
      expect(versionReads).not.toHaveLength(0);
      for (const { filter, options } of versionReads) {
        const plan = store.queryPlan(SHARES, filter, options).join('\n');
        expect(plan).toMatch(/USING COVERING INDEX "?collection:shares:by:/);
      }
    },
  );

  it('given a marker that is not listed, then the listing is refused with a 400', async () => {
    await expect(list({ marker: shareId(9_999) })).rejects.toMatchObject({
      status: 400,
      message: `marker [${shareId(9_999)}] not found`,
    });
  });

  it.each([
    [{ limit: '50', sort_key: 'size' }],
    [{ limit: '50', sort_key: 'name', sort_dir: 'asc' }],
    [{ limit: '50', sort_key: 'updated_at' }],
    [{ limit: '10', with_count: 'true' }],
    [{ limit: '50', status: 'available' }],
    [{ name: 'share-3' }],
    [{ limit: '50', offset: '120' }],
  ])(
    'given the declared indexes and kept counts, when listed with %j, then every query the store runs walks an index and sorts nothing',
    async (query) => {
      await list(query);

      expect(store.asked.length).toBeGreaterThan(0);
      for (const { filter, options } of store.asked) {
        const plan = store.queryPlan(SHARES, filter, options).join('\n');
        expect(plan).toMatch(/USING (COVERING )?INDEX "?(collection:shares:by:|counts:shares:)/);
        expect(plan).not.toMatch(/TEMP B-TREE/);
      }
    },
  );
});

describe('the share listing, reading whole only the records whose document is not kept', () => {
  const PAGE = 10;
  let dir: string;
  let store: RecordingStore;
  let records: ShareRecord[];
  const caller: Caller = { userId: 'u1', projectId: PROJECT, roles: ['member'], isAdmin: false };
  const reader: Reader = { caller, version: { major: 2, minor: 72, text: '2.72' } };
  const listPage = (kept: ShareDocuments): Promise<ShareListPage> =>
    new ListSharesHandler(store, kept).execute(
      new ListShares({ limit: String(PAGE), sort_key: 'id', sort_dir: 'asc' }, reader),
    );
  const renamed = (record: ShareRecord, name: string): ShareRecord => {
    const i = records.indexOf(record);
    const events: ShareEvent[] = [
      ...eventsOf(i, PROJECT),
      { type: 'ShareUpdated', data: { name, updatedAt: at(30) } },
    ];
    const state = events.reduce(evolveShare, initialShareState());
    if (!isActiveShare(state)) throw new Error('the events make an active share');
    return toShareRecord(state, events.length);
  };
  const put = (document: ShareRecord): DocumentWrite => ({
    kind: 'put',
    collection: SHARES,
    document,
  });

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-list-kept-'));
    store = new RecordingStore({ file: path.join(dir, 'read-models.sqlite') });
    // Shares 1 to 20 (13 is in the recycle bin, past the first page).
    records = Array.from({ length: 21 }, (_, i) => recordOf(i, PROJECT));
    await store.write(records.slice(1).map(put));
  });
  afterEach(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('given a page listed before, when it is listed again unchanged, then no record is read whole and the documents are the same', async () => {
    const kept = new ShareDocuments();
    const first = await listPage(kept);
    store.readWhole.splice(0);

    const again = await listPage(kept);

    expect(store.readWhole).toEqual([]);
    expect(again.shares).toHaveLength(PAGE);
    again.shares.forEach((share, i) => expect(share).toBe(first.shares[i]));
    expect(again.nextMarker).toBe(first.nextMarker);
  });

  it('given a page listed before, when one of its shares is renamed, then only that record is read whole and the page shows the new name', async () => {
    const kept = new ShareDocuments();
    await listPage(kept);
    const share = records[3] as ShareRecord;
    await store.write([put(renamed(share, 'renamed'))]);
    store.readWhole.splice(0);

    const again = await listPage(kept);

    expect(store.readWhole).toEqual([share.id]);
    expect(again.shares.find((s) => s.id === share.id)?.name).toBe('renamed');
  });

  it('given a share renamed between the listing of ids and the read of the records, then the page is read again and shows the share as it now is', async () => {
    const share = records[2] as ShareRecord;
    store.writesBetweenReads = [put(renamed(share, 'between'))];

    const page = await listPage(new ShareDocuments());

    const shown = page.shares.find((s) => s.id === share.id);
    expect(shown?.name).toBe('between');
    expect(shown?.revision).toBe(share.revision + 1);
    expect(page.shares.map((s) => s.id)).toEqual(records.slice(1, PAGE + 1).map((r) => r.id));
  });

  it('given a share deleted between the listing of ids and the read of the records, then the page is read again, without it and still full', async () => {
    const share = records[2] as ShareRecord;
    store.writesBetweenReads = [{ kind: 'delete', collection: SHARES, id: share.id }];

    const page = await listPage(new ShareDocuments());

    expect(page.shares.map((s) => s.id)).toEqual(
      records
        .slice(1, PAGE + 2)
        .filter((r) => r.id !== share.id)
        .map((r) => r.id),
    );
    expect(page.nextMarker).toBe(records[PAGE + 1]?.id);
  });
});
