import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { loadConfig } from '#hawser/platform';
import { createHawserApp } from './hawser.app.js';
import {
  eventually,
  startHawser,
  type HawserTestServer,
} from './test-support/hawser-test-server.js';
import { manilaRequest } from './test-support/manila-http.js';
import { expectRisingProgress, watchUntilSettled } from './test-support/share-progress.js';
import { fromSnapshotBackends } from './test-support/from-snapshot-backends.js';

const MEMBER_PROJECT = '22222222222222222222222222222222';
const MEMBER = `alice:${MEMBER_PROJECT}:member,reader`;
const OTHER = 'bob:33333333333333333333333333333333:member,reader';
const MIB = 1024 * 1024;

const CLONABLE = {
  driver_handles_share_servers: 'false',
  snapshot_support: 'true',
  create_share_from_snapshot_support: 'true',
};

/** Share types, a source share with real data on a chosen back end, and its snapshot. */
const fixtures = (hawser: Pick<HawserTestServer, 'request'>) => {
  const createType = async (name: string, extraSpecs: Record<string, string>) => {
    const created = await hawser.request('POST', '/v2/types', {
      share_type: { name, extra_specs: extraSpecs },
    });
    expect(created.status).toBe(200);
  };
  const waitForShare = (id: string, status: string, token = MEMBER) =>
    eventually(
      async () => {
        const show = await hawser.request('GET', `/v2/shares/${id}`, undefined, { token });
        return show.body.share?.status === status ? show.body.share : undefined;
      },
      20_000,
      `share ${id} to be ${status}`,
    );
  /** The share's directory: its admin-only export location is the local path. */
  const directoryOf = async (shareId: string): Promise<string> => {
    const listed = await hawser.request('GET', `/v2/shares/${shareId}/export_locations`);
    const local = (listed.body.export_locations as { path: string; is_admin_only: boolean }[]).find(
      (l) => l.is_admin_only,
    );
    expect(local).toBeDefined();
    return (local as { path: string }).path;
  };
  /** An available share of `type` holding `bytes` of random data, and an available snapshot of it. */
  const sourceWithSnapshot = async (type: string, bytes: number, token = MEMBER, size = 1) => {
    const created = await hawser.request(
      'POST',
      '/v2/shares',
      { share: { share_proto: 'NFS', size, share_type: type, name: 'source' } },
      { token },
    );
    expect(created.status).toBe(200);
    const shareId = created.body.share.id as string;
    await waitForShare(shareId, 'available', token);
    const data = randomBytes(bytes);
    fs.writeFileSync(path.join(await directoryOf(shareId), 'data.bin'), data);
    const snapshot = await hawser.request(
      'POST',
      '/v2/snapshots',
      { snapshot: { share_id: shareId, name: 'snap' } },
      { token },
    );
    expect(snapshot.status).toBe(202);
    const snapshotId = snapshot.body.snapshot.id as string;
    await eventually(
      async () => {
        const show = await hawser.request('GET', `/v2/snapshots/${snapshotId}`);
        return show.body.snapshot?.status === 'available' ? true : undefined;
      },
      10_000,
      'snapshot to be available',
    );
    const host = (await hawser.request('GET', `/v2/shares/${shareId}`)).body.share.host as string;
    return { shareId, snapshotId, data, host };
  };
  const clone = (body: Record<string, unknown>, token = MEMBER, version?: string) =>
    hawser.request(
      'POST',
      '/v2/shares',
      { share: { share_proto: 'NFS', name: 'clone', ...body } },
      { token, ...(version && { version }) },
    );
  const messagesOf = async (shareId: string) =>
    (await hawser.request('GET', `/v2/messages?resource_id=${shareId}`)).body.messages as {
      action_id: string;
      detail_id: string;
      message_level: string;
      user_message: string;
    }[];
  /** Reads a share as an admin sees it (host included). */
  const showShare = (id: string) => async () =>
    (await hawser.request('GET', `/v2/shares/${id}`)).body.share as {
      status: string;
      progress: string | null;
      host: string;
    };
  return {
    createType,
    waitForShare,
    directoryOf,
    sourceWithSnapshot,
    clone,
    messagesOf,
    showShare,
  };
};

describe('creating a share from a snapshot, with use_scheduler_creating_share_from_snapshot off (the default)', () => {
  let hawser: HawserTestServer;
  let f: ReturnType<typeof fixtures>;

  beforeAll(async () => {
    hawser = await startHawser({
      backends: fromSnapshotBackends,
      env: { HAWSER_SHARE_STATUS_POLL_MS: '100' },
    });
    f = fixtures(hawser);
    await f.createType('clonable', { ...CLONABLE, share_backend_name: 'alpha' });
    await f.createType('other-clonable', { ...CLONABLE, share_backend_name: 'alpha' });
    await f.createType('snapshots-only', {
      driver_handles_share_servers: 'false',
      snapshot_support: 'true',
      share_backend_name: 'alpha',
    });
  }, 60_000);
  afterAll(() => hawser.close());

  it('puts the share on the source pool without scheduling, with the snapshot data, size and type by default', async () => {
    const source = await f.sourceWithSnapshot('clonable', 256 * 1024);
    const usage = async () =>
      (await hawser.request('GET', `/v2/quota-sets/${MEMBER_PROJECT}/detail`)).body.quota_set;
    const before = await usage();
    const created = await f.clone({ snapshot_id: source.snapshotId });
    expect(created.status).toBe(200);
    // Quotas count the clone as any other share.
    const after = await usage();
    expect(after.shares.in_use).toBe(before.shares.in_use + 1);
    expect(after.gigabytes.in_use).toBe(before.gigabytes.in_use + 1);
    expect(created.body.share).toMatchObject({
      snapshot_id: source.snapshotId,
      size: 1,
      share_type_name: 'clonable',
      availability_zone: 'az-1',
      create_share_from_snapshot_support: true,
    });
    const id = created.body.share.id as string;
    const share = await f.waitForShare(id, 'available');
    expect(share.progress).toBe('100%');
    const admin = (await hawser.request('GET', `/v2/shares/${id}`)).body.share;
    expect(admin.host).toBe(source.host);
    const copied = fs.readFileSync(path.join(await f.directoryOf(id), 'data.bin'));
    expect(copied.equals(source.data)).toBe(true);
    // The share's stream records where it came from, and that no scheduler placed it.
    const stream = await hawser.request('GET', `/hawser/v1/streams/share-${id}`);
    const events = stream.body.events as { type: string; data: Record<string, unknown> }[];
    expect(events.map((e) => e.type).slice(0, 2)).toEqual(['ShareRequested', 'ShareScheduled']);
    expect(events[0]?.data.snapshotSource).toMatchObject({
      snapshotId: source.snapshotId,
      shareId: source.shareId,
      host: source.host,
      placement: 'source-pool',
    });
  }, 60_000);

  it('refuses, changing nothing: another zone (400), a type without the capability (400), a snapshot that is not available (400), a smaller size (400), another type (400), another project (404)', async () => {
    const source = await f.sourceWithSnapshot('clonable', 1024, MEMBER, 2);
    const before = (await hawser.request('GET', '/v2/shares', undefined, { token: MEMBER })).body
      .shares.length;

    const otherZone = await f.clone({ snapshot_id: source.snapshotId, availability_zone: 'az-2' });
    expect(otherZone.status).toBe(400);
    expect(otherZone.body.badRequest.message).toMatch(/availability zone of the source share/);

    const smaller = await f.clone({ snapshot_id: source.snapshotId, size: 1 });
    expect(smaller.status).toBe(400);
    expect(smaller.body.badRequest.message).toMatch(/smaller than the size of the snapshot/);

    const otherType = await f.clone({
      snapshot_id: source.snapshotId,
      share_type: 'other-clonable',
    });
    expect(otherType.status).toBe(400);
    expect(otherType.body.badRequest.message).toMatch(/must match the type of the source share/);

    const unknownType = await f.clone({ snapshot_id: source.snapshotId, share_type: 'nope' });
    expect(unknownType.status).toBe(404);

    const elsewhere = await f.clone({ snapshot_id: source.snapshotId }, OTHER);
    expect(elsewhere.status).toBe(404);
    // Any id is looked up, as Manila looks it up, and its fault names the exception's class.
    for (const snapshotId of ['00000000-0000-4000-8000-000000000000', 'nope']) {
      const unknown = await f.clone({ snapshot_id: snapshotId });
      expect([unknown.status, unknown.body.itemNotFound?.message]).toEqual([
        404,
        `ShareSnapshotNotFound: Snapshot ${snapshotId} could not be found.`,
      ]);
    }

    const plain = await f.sourceWithSnapshot('snapshots-only', 1024);
    const incapable = await f.clone({ snapshot_id: plain.snapshotId });
    expect(incapable.status).toBe(400);
    expect(incapable.body.badRequest.message).toMatch(/does not have that capability/);
    // Before 2.24 Manila does not check the capability.
    const old = await f.clone({ snapshot_id: plain.snapshotId }, MEMBER, '2.23');
    expect(old.status).toBe(200);
    await f.waitForShare(old.body.share.id as string, 'available');

    const reset = await hawser.request('POST', `/v2/snapshots/${source.snapshotId}/action`, {
      reset_status: { status: 'error' },
    });
    expect(reset.status).toBe(202);
    const notAvailable = await f.clone({ snapshot_id: source.snapshotId });
    expect(notAvailable.status).toBe(400);
    expect(notAvailable.body.badRequest.message).toMatch(/Snapshot status must be available/);

    const after = (await hawser.request('GET', '/v2/shares', undefined, { token: MEMBER })).body
      .shares.length;
    expect(after).toBe(before + 2); // the plain source and its 2.23 clone
  }, 60_000);
});

describe('creating a share from a snapshot, with use_scheduler_creating_share_from_snapshot on', () => {
  let hawser: HawserTestServer;
  let f: ReturnType<typeof fixtures>;

  beforeAll(async () => {
    hawser = await startHawser({
      backends: fromSnapshotBackends,
      env: {
        HAWSER_USE_SCHEDULER_CREATING_SHARE_FROM_SNAPSHOT: 'true',
        HAWSER_SHARE_STATUS_POLL_MS: '100',
      },
    });
    f = fixtures(hawser);
    await f.createType('on-alpha', { ...CLONABLE, share_backend_name: 'alpha' });
    await f.createType('on-isolated', { ...CLONABLE, share_backend_name: 'isolated' });
  }, 60_000);
  afterAll(() => hawser.close());

  it('copies into another pool of the same back end in the background when the source pool does not take the share', async () => {
    // The first share on alpha goes to pool1 (equal pools: the first wins); a 2 GiB clone
    // may not go there, so the source zone leaves alpha's pool2 (affinity 75).
    const source = await f.sourceWithSnapshot('on-alpha', 2 * MIB);
    expect(source.host).toBe('node-az1@alpha#pool1');
    const created = await f.clone({ snapshot_id: source.snapshotId, size: 2 });
    expect(created.status).toBe(200);
    const id = created.body.share.id as string;
    const { last: share, seen } = await watchUntilSettled(f.showShare(id), 30_000);
    expect(share).toMatchObject({
      status: 'available',
      progress: '100%',
      host: 'node-az1@alpha#pool2',
      availability_zone: 'az-1',
      size: 2,
    });
    expect(seen.map((s) => s.status)).toContain('creating_from_snapshot');
    const copied = fs.readFileSync(path.join(await f.directoryOf(id), 'data.bin'));
    expect(copied.equals(source.data)).toBe(true);
  }, 60_000);

  it('copies into another zone in the background: creating_from_snapshot with rising progress (2.54+), then available with the data', async () => {
    const source = await f.sourceWithSnapshot('on-alpha', 6 * MIB);
    const created = await f.clone({ snapshot_id: source.snapshotId, availability_zone: 'az-2' });
    expect(created.status).toBe(200);
    const id = created.body.share.id as string;

    let old: Record<string, unknown> | undefined;
    const show = f.showShare(id);
    const { last: share, seen } = await watchUntilSettled(async () => {
      const shown = await show();
      if (shown.status === 'creating_from_snapshot' && !old) {
        old = (await hawser.request('GET', `/v2/shares/${id}`, undefined, { version: '2.53' })).body
          .share;
      }
      return shown;
    }, 30_000);
    expect(share).toMatchObject({
      status: 'available',
      progress: '100%',
      availability_zone: 'az-2',
    });
    expect(share.host).toBe('node-az2@charlie#pool1');
    // Before 2.54 the status reads `creating` and there is no progress.
    expect(old?.status).toBe('creating');
    expect(old).not.toHaveProperty('progress');

    expectRisingProgress(seen);

    const copied = fs.readFileSync(path.join(await f.directoryOf(id), 'data.bin'));
    expect(copied.equals(source.data)).toBe(true);

    // Each progress change is an event of the share's stream.
    const stream = await hawser.request('GET', `/hawser/v1/streams/share-${id}?limit=100`);
    const types = (stream.body.events as { type: string }[]).map((e) => e.type);
    expect(types).toContain('ShareCreationDeferred');
    expect(types.filter((t) => t === 'ShareCreationProgressed').length).toBeGreaterThan(1);
    expect(types.at(-1)).toBe('ShareCreated');

    const messages = await f.messagesOf(id);
    expect(messages.map((m) => [m.action_id, m.detail_id, m.message_level]).sort()).toEqual([
      ['002', '901', 'INFO'],
      ['005', '902', 'INFO'],
    ]);
  }, 60_000);

  it('without a zone, keeps the clone in the source zone and on a compatible back end', async () => {
    const source = await f.sourceWithSnapshot('on-alpha', 1024);
    const created = await f.clone({ snapshot_id: source.snapshotId });
    expect(created.status).toBe(200);
    expect(created.body.share.availability_zone).toBe('az-1');
    const share = await f.waitForShare(created.body.share.id as string, 'available');
    const admin = (await hawser.request('GET', `/v2/shares/${share.id as string}`)).body.share;
    expect(admin.host).toMatch(/^node-az1@alpha#pool[12]$/);
    const copied = fs.readFileSync(path.join(await f.directoryOf(share.id as string), 'data.bin'));
    expect(copied.equals(source.data)).toBe(true);
  }, 60_000);

  it('ends in error with a user message when the copy fails (the snapshot deleted under it)', async () => {
    const source = await f.sourceWithSnapshot('on-alpha', 1024);
    // Twelve more files of 1 MiB: about three seconds of copying at 4 MiB/s.
    const sourceDir = await f.directoryOf(source.shareId);
    for (let part = 0; part < 12; part++) {
      fs.writeFileSync(path.join(sourceDir, `part-${part}.bin`), randomBytes(MIB));
    }
    const snapshot = await hawser.request(
      'POST',
      '/v2/snapshots',
      { snapshot: { share_id: source.shareId, name: 'big' } },
      { token: MEMBER },
    );
    const snapshotId = snapshot.body.snapshot.id as string;
    await eventually(
      async () =>
        (await hawser.request('GET', `/v2/snapshots/${snapshotId}`)).body.snapshot?.status ===
        'available'
          ? true
          : undefined,
      10_000,
      'the snapshot',
    );
    const created = await f.clone({ snapshot_id: snapshotId, availability_zone: 'az-2' });
    const id = created.body.share.id as string;
    await eventually(
      async () => {
        const share = await f.showShare(id)();
        return share.status === 'creating_from_snapshot' ? true : undefined;
      },
      10_000,
      'the copy to start',
    );
    const deleted = await hawser.request('DELETE', `/v2/snapshots/${snapshotId}`, undefined, {
      token: MEMBER,
    });
    expect(deleted.status).toBe(202);

    const { last } = await watchUntilSettled(f.showShare(id), 30_000);
    expect(last).toMatchObject({ status: 'error', progress: null });
    const messages = await f.messagesOf(id);
    expect(messages.map((m) => [m.action_id, m.detail_id, m.message_level]).sort()).toEqual([
      ['002', '901', 'INFO'],
      ['005', '017', 'ERROR'],
    ]);
  }, 60_000);

  it('filters out back ends outside the source replication domain: no compatible pool is an error with the CreateFromSnapshot message', async () => {
    const source = await f.sourceWithSnapshot('on-isolated', 1024);
    expect(source.host).toBe('node-az2@isolated#pool1');
    const created = await f.clone({ snapshot_id: source.snapshotId, availability_zone: 'az-1' });
    expect(created.status).toBe(200);
    const id = created.body.share.id as string;
    await f.waitForShare(id, 'error');
    const messages = await f.messagesOf(id);
    expect(messages).toEqual([
      expect.objectContaining({
        action_id: '001',
        detail_id: '016',
        message_level: 'ERROR',
        user_message:
          "allocate host: No storage could be allocated for this share request, CreateFromSnapshot filter didn't succeed.",
      }),
    ]);
  }, 60_000);
});

describe('a restart while a share is being created from a snapshot', () => {
  const dataDirs: string[] = [];
  /** Starts Hawser on the data directory it is given, as after a process restart. */
  const restartable = () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-restart-'));
    dataDirs.push(dataDir);
    const config = loadConfig({
      HAWSER_DATA_DIR: dataDir,
      HAWSER_AUTH: 'noauth',
      HAWSER_USE_SCHEDULER_CREATING_SHARE_FROM_SNAPSHOT: 'true',
      HAWSER_SHARE_STATUS_POLL_MS: '100',
    });
    const start = async () => {
      const app = await createHawserApp(config, fromSnapshotBackends(dataDir, MIB), {
        logger: false,
      });
      await app.listen(0, '127.0.0.1');
      const { port } = app.getHttpServer().address() as { port: number };
      const url = `http://127.0.0.1:${port}`;
      return {
        app,
        request: (...args: Parameters<HawserTestServer['request']>) => manilaRequest(url, ...args),
      };
    };
    return { dataDir, start };
  };
  afterAll(() => {
    for (const dataDir of dataDirs) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('goes on after the restart: the new node polls it from the log, the copy resumes, it ends available with the data', async () => {
    const { start } = restartable();
    const first = await start();
    let f = fixtures(first);
    await f.createType('restartable', { ...CLONABLE, share_backend_name: 'alpha' });
    const source = await f.sourceWithSnapshot('restartable', 6 * MIB);
    const created = await f.clone({ snapshot_id: source.snapshotId, availability_zone: 'az-2' });
    expect(created.status).toBe(200);
    const id = created.body.share.id as string;
    const progressOf = async (hawser: typeof first) =>
      (await hawser.request('GET', `/v2/shares/${id}`)).body.share as {
        status: string;
        progress: string | null;
      };
    const before = await eventually(
      async () => {
        const share = await progressOf(first);
        return share.status === 'creating_from_snapshot' && share.progress !== '0%'
          ? share
          : undefined;
      },
      20_000,
      'the copy to be under way',
    );
    const eventsBefore = (await first.request('GET', `/hawser/v1/streams/share-${id}?limit=1000`))
      .body.events.length as number;
    await first.app.close();

    const second = await start();
    try {
      f = fixtures(second);
      expect((await progressOf(second)).status).toBe('creating_from_snapshot');
      const share = await f.waitForShare(id, 'available');
      expect(share.progress).toBe('100%');
      const copied = fs.readFileSync(path.join(await f.directoryOf(id), 'data.bin'));
      expect(copied.equals(source.data)).toBe(true);
      const stream = await second.request('GET', `/hawser/v1/streams/share-${id}?limit=1000`);
      const after = (stream.body.events as { type: string }[]).slice(eventsBefore);
      expect(after.map((e) => e.type)).toContain('ShareCreated');
      expect(before.progress).toMatch(/^\d+%$/);
      expect((await f.messagesOf(id)).map((m) => m.detail_id).sort()).toEqual(['901', '902']);
    } finally {
      await second.app.close();
    }
  }, 90_000);

  it('given the read models of an earlier version, written before instances in flight kept their status apart, when restarted, then they are rebuilt and the poll still finds the copy', async () => {
    const { dataDir, start } = restartable();
    const first = await start();
    let f = fixtures(first);
    await f.createType('upgraded', { ...CLONABLE, share_backend_name: 'alpha' });
    const source = await f.sourceWithSnapshot('upgraded', 6 * MIB);
    const created = await f.clone({ snapshot_id: source.snapshotId, availability_zone: 'az-2' });
    expect(created.status).toBe(200);
    const id = created.body.share.id as string;
    await eventually(
      async () => {
        const share = (await first.request('GET', `/v2/shares/${id}`)).body.share as {
          status: string;
        };
        return share.status === 'creating_from_snapshot' ? share : undefined;
      },
      20_000,
      'the copy to be under way',
    );
    await first.app.close();
    // What the earlier version left: instances without `transitional_status`, no version.
    const file = new Database(path.join(dataDir, 'read-models.sqlite'));
    const stripped = file
      .prepare(
        `UPDATE "collection:share_instances" SET doc = jsonb_remove(doc, '$.transitional_status') ` +
          `WHERE json_extract(doc, '$.transitional_status') IS NOT NULL`,
      )
      .run().changes;
    file.prepare(`DELETE FROM "collection:projection_versions"`).run();
    file.close();
    expect(stripped).toBeGreaterThan(0);

    const second = await start();
    try {
      f = fixtures(second);
      const share = await f.waitForShare(id, 'available');
      expect(share.progress).toBe('100%');
      const copied = fs.readFileSync(path.join(await f.directoryOf(id), 'data.bin'));
      expect(copied.equals(source.data)).toBe(true);
    } finally {
      await second.app.close();
    }
    const after = new Database(path.join(dataDir, 'read-models.sqlite'), { readonly: true });
    const alias = after
      .prepare(`SELECT physical FROM collection_aliases WHERE logical = 'projection_versions'`)
      .pluck()
      .get() as string | undefined;
    const versions = after
      .prepare(`SELECT json(doc) FROM "collection:${alias ?? 'projection_versions'}"`)
      .pluck()
      .all();
    after.close();
    expect(versions.map((doc) => JSON.parse(doc as string))).toContainEqual(
      expect.objectContaining({ version: 2 }),
    );
  }, 90_000);
});
