import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { OperationJournal, type SimulatedBackendConfig } from '#hawser/drivers';
import { availableDefaultShare, createDefaultType } from './test-support/default-share-type.js';
import { crashedService } from './test-support/crashed-service.js';
import { HawserProcess } from './test-support/hawser-process.js';
import {
  eventually,
  startHawser,
  type HawserTestServer,
} from './test-support/hawser-test-server.js';
import type { ManilaCall } from './test-support/replicated-share.js';
import { journalledSimulatedBackends } from './test-support/simulated-backends.js';

const MEMBER = 'alice:22222222222222222222222222222222:member,reader';
const OTHER = 'bob:33333333333333333333333333333333:member,reader';
const V = '2.69';

const softDelete = (hawser: HawserTestServer, id: string, token = MEMBER, version = V) =>
  hawser.request('POST', `/v2/shares/${id}/action`, { soft_delete: null }, { token, version });
const restore = (hawser: HawserTestServer, id: string, token = MEMBER, version = V) =>
  hawser.request('POST', `/v2/shares/${id}/action`, { restore: null }, { token, version });

const availableShare = (call: ManilaCall) => availableDefaultShare(call);

describe('the recycle bin over HTTP (2.69): soft_delete, restore, listing', () => {
  let hawser: HawserTestServer;
  const member: ManilaCall = (method, route, body) =>
    hawser.request(method, route, body, { token: MEMBER, version: V });

  beforeAll(async () => {
    hawser = await startHawser({ env: { HAWSER_SOFT_DELETE_RETENTION_S: '3600' } });
    await createDefaultType(hawser, { snapshot_support: 'true' });
  });
  afterAll(() => hawser.close());

  const listIds = async (query: string, version = V) =>
    (
      await hawser.request('GET', `/v2/shares/detail${query}`, undefined, {
        token: MEMBER,
        version,
      })
    ).body.shares.map((s: { id: string }) => s.id) as string[];

  it('puts a share in the bin (202) for the retention time, lists it only when asked, and restores it (202, then 200)', async () => {
    const id = await availableShare(member);
    const before = Date.now();
    expect((await softDelete(hawser, id)).status).toBe(202);

    const shown = (await member('GET', `/v2/shares/${id}`)).body.share;
    expect(shown.is_soft_deleted).toBe(true);
    const due = Date.parse(shown.scheduled_to_be_deleted_at);
    expect(due).toBeGreaterThanOrEqual(before + 3_600_000 - 1_000);
    expect(due).toBeLessThanOrEqual(Date.now() + 3_600_000);

    expect(await listIds('')).not.toContain(id);
    expect(await listIds('?is_soft_deleted=true')).toContain(id);
    expect(await listIds('?is_soft_deleted=false')).not.toContain(id);
    // Below 2.69 the filter is dropped, as Manila does: the bin stays out of the listing.
    expect(await listIds('?is_soft_deleted=true', '2.68')).not.toContain(id);
    const bad = await hawser.request('GET', '/v2/shares?is_soft_deleted=maybe', undefined, {
      token: MEMBER,
      version: V,
    });
    expect(bad.status).toBe(400);

    expect((await restore(hawser, id)).status).toBe(202);
    const back = (await member('GET', `/v2/shares/${id}`)).body.share;
    expect(back).toMatchObject({ is_soft_deleted: false, scheduled_to_be_deleted_at: null });
    expect(await listIds('')).toContain(id);
    expect((await restore(hawser, id)).status).toBe(200);
  });

  it('is served from 2.69 only', async () => {
    const id = await availableShare(member);
    const early = await softDelete(hawser, id, MEMBER, '2.68');
    expect(early.status).toBe(404);
    expect((await restore(hawser, id, MEMBER, '2.68')).status).toBe(404);
    expect((await member('GET', `/v2/shares/${id}`)).body.share.is_soft_deleted).toBe(false);
  });

  it('refuses what Manila refuses on a share in the bin (403), changing nothing, and lets the owner delete it', async () => {
    const id = await availableShare(member);
    expect((await softDelete(hawser, id)).status).toBe(202);
    const before = (await member('GET', `/v2/shares/${id}`)).body.share;

    const again = await softDelete(hawser, id);
    expect(again.status).toBe(403);
    expect(again.body.forbidden.message).toMatch(/soft deleted already/);
    const refused = [
      await member('POST', `/v2/shares/${id}/action`, { extend: { new_size: 2 } }),
      await member('PUT', `/v2/shares/${id}`, { share: { display_name: 'x' } }),
      await member('POST', `/v2/shares/${id}/action`, {
        allow_access: { access_type: 'ip', access_to: '10.0.0.1' },
      }),
      await member('POST', '/v2/snapshots', { snapshot: { share_id: id } }),
    ];
    expect(refused.map((r) => r.status)).toEqual([403, 403, 403, 403]);
    expect(refused[0]!.body.forbidden.message).toMatch(/since it has been soft deleted/);
    expect((await member('GET', `/v2/shares/${id}`)).body.share).toEqual(before);

    expect((await member('DELETE', `/v2/shares/${id}`)).status).toBe(202);
    await eventually(
      async () => ((await member('GET', `/v2/shares/${id}`)).status === 404 ? true : undefined),
      10_000,
      'the share to be deleted',
    );
  });

  it('refuses a share with snapshots (403), and another project (404 private, 403 public)', async () => {
    const id = await availableShare(member);
    const snap = await member('POST', '/v2/snapshots', { snapshot: { share_id: id } });
    expect(snap.status).toBe(202);
    const withSnapshot = await softDelete(hawser, id);
    expect(withSnapshot.status).toBe(403);
    expect(withSnapshot.body.forbidden.message).toMatch(/Share still has 1 dependent snapshots/);

    const open = await availableShare(member);
    const published = await hawser.request('PUT', `/v2/shares/${open}`, {
      share: { is_public: true },
    });
    expect(published.status).toBe(200);
    expect((await softDelete(hawser, open, OTHER)).status).toBe(403);
    expect((await softDelete(hawser, id, OTHER)).status).toBe(404);
    expect((await restore(hawser, open, OTHER)).status).toBe(403);
    expect((await member('GET', `/v2/shares/${open}`)).body.share.is_soft_deleted).toBe(false);
  });

  it('answers 404 for an unknown share', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await softDelete(hawser, unknown)).status).toBe(404);
    expect((await restore(hawser, unknown)).status).toBe(404);
  });
});

describe('the longest retention the configuration accepts', () => {
  let hawser: HawserTestServer;
  const HUNDRED_YEARS_S = 3_153_600_000;

  beforeAll(async () => {
    hawser = await startHawser({
      env: { HAWSER_SOFT_DELETE_RETENTION_S: String(HUNDRED_YEARS_S) },
    });
    await createDefaultType(hawser);
  });
  afterAll(() => hawser.close());

  it('given a retention of 100 years, when a share is soft deleted, then it is due 100 years from now (202)', async () => {
    const member: ManilaCall = (method, route, body) =>
      hawser.request(method, route, body, { token: MEMBER, version: V });
    const id = await availableShare(member);
    const before = Date.now();
    expect((await softDelete(hawser, id)).status).toBe(202);

    const due = Date.parse(
      (await member('GET', `/v2/shares/${id}`)).body.share.scheduled_to_be_deleted_at,
    );
    expect(due).toBeGreaterThanOrEqual(before + HUNDRED_YEARS_S * 1000 - 1_000);
    expect(due).toBeLessThanOrEqual(Date.now() + HUNDRED_YEARS_S * 1000);
  });
});

describe('the recycle bin timer', () => {
  let dir: string;
  let backends: SimulatedBackendConfig[];

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-recycle-bin-'));
    backends = journalledSimulatedBackends(dir);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('given a share soft deleted and the process SIGKILLed, when the process restarts, then the share is deleted once its retention has passed, by one driver call', async () => {
    const { env, call } = await crashedService(dir, `admin:${'5'.repeat(32)}`);
    const retention = { ...env, HAWSER_SOFT_DELETE_RETENTION_S: '2' };
    const service = new HawserProcess(retention);
    await service.start();
    const type = await call('POST', '/v2/types', {
      share_type: { name: 'default', extra_specs: { driver_handles_share_servers: 'false' } },
    });
    expect(type.status).toBe(200);
    const id = await availableShare(call);
    expect((await call('POST', `/v2/shares/${id}/action`, { soft_delete: null })).status).toBe(202);
    await service.kill();

    const restarted = new HawserProcess(retention);
    await restarted.start();
    try {
      await eventually(
        async () => ((await call('GET', `/v2/shares/${id}`)).status === 404 ? true : undefined),
        20_000,
        'the expired share to be deleted',
        100,
      );
      const deletions = backends
        .flatMap((b) => OperationJournal.read(b.options?.journalFile as string))
        .filter((e) => e.operation === 'deleteShare' && e.ids.includes(id));
      expect(deletions.map((e) => e.outcome)).toEqual(['ok']);
    } finally {
      await restarted.stop();
    }
  }, 120_000);
});
