import fs from 'node:fs';
import path from 'node:path';
import {
  eventually,
  startHawser,
  type HawserTestServer,
} from './test-support/hawser-test-server.js';
import {
  createShareType,
  migrationSteps,
  sha256,
  startMigrationHawser,
} from './test-support/share-migration.js';

const MIB = 1024 * 1024;
const MEMBER = 'alice:22222222222222222222222222222222:member,reader';
const ALPHA1 = 'node-az1@alpha#pool1';
const ALPHA2 = 'node-az1@alpha#pool2';
const CHARLIE = 'node-az2@charlie#pool1';

describe('share migration over HTTP on the local driver', () => {
  let hawser: HawserTestServer;
  let m: ReturnType<typeof migrationSteps>;
  /** A type any back end may take: the share moves to it when it leaves `alpha`. */
  let anywhere: string;

  beforeAll(async () => {
    hawser = await startMigrationHawser();
    m = migrationSteps(hawser);
    await createShareType(hawser, 'movable', { share_backend_name: 'alpha' });
    anywhere = await createShareType(hawser, 'anywhere');
  }, 60_000);
  afterAll(() => hawser.close());

  it('host-assisted: copies the data with rising progress, waits, completes on the new pool; the source goes only at completion', async () => {
    const source = await m.shareWithData('movable', 6 * MIB);
    const started = await m.start(source.shareId, CHARLIE, { new_share_type_id: anywhere });
    expect(started.status).toBe(202);
    expect((await m.show(source.shareId)).status).toBe('migrating');

    const seen: number[] = [];
    const firstPhase = await (async () => {
      for (let i = 0; i < 600; i++) {
        const share = await m.show(source.shareId);
        if (share.task_state === 'data_copying_in_progress') {
          seen.push((await m.progress(source.shareId)).total_progress);
        }
        if (share.task_state === 'data_copying_completed') return share;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error('the copy did not finish');
    })();
    expect(firstPhase.status).toBe('migrating');
    expect(seen.length).toBeGreaterThan(1);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(new Set(seen).size).toBeGreaterThan(1);
    expect(await m.progress(source.shareId)).toEqual({
      total_progress: 100,
      task_state: 'data_copying_completed',
    });
    // Phase 1 done: the source is still there and still the share's.
    expect(fs.existsSync(path.join(source.dir, 'data.bin'))).toBe(true);
    expect(await m.directoryOf(source.shareId)).toBe(source.dir);

    expect((await m.action(source.shareId, { migration_complete: null })).status).toBe(202);
    const done = await m.waitForTaskState(source.shareId, 'migration_success');
    expect(done).toMatchObject({ status: 'available', host: CHARLIE });
    const detail = await hawser.request('GET', `/v2/shares/${source.shareId}`);
    expect(detail.body.share).toMatchObject({ share_type: anywhere, availability_zone: 'az-2' });
    const moved = await m.directoryOf(source.shareId);
    expect(moved).not.toBe(source.dir);
    expect(sha256(path.join(moved, 'data.bin'))).toBe(source.checksum);
    expect(fs.existsSync(source.dir)).toBe(false);
    const instances = await hawser.request('GET', `/v2/shares/${source.shareId}/instances`);
    expect(instances.body.share_instances.map((i: { host: string }) => i.host)).toEqual([CHARLIE]);
  }, 120_000);

  it('driver-assisted (preserve_metadata): a clone on another pool of the root, phase 1 done at once', async () => {
    const source = await m.shareWithData('movable', 64 * 1024);
    const target = (await m.show(source.shareId)).host === ALPHA1 ? ALPHA2 : ALPHA1;
    const started = await m.start(source.shareId, target, {
      preserve_metadata: true,
      force_host_assisted_migration: false,
    });
    expect(started.status).toBe(202);
    await m.waitForTaskState(source.shareId, 'migration_driver_phase1_done');
    expect((await m.action(source.shareId, { migration_complete: null })).status).toBe(202);
    await m.waitForTaskState(source.shareId, 'migration_success');
    const moved = await m.directoryOf(source.shareId);
    expect(sha256(path.join(moved, 'data.bin'))).toBe(source.checksum);
    expect(fs.existsSync(source.dir)).toBe(false);
    expect((await m.show(source.shareId)).host).toBe(target);
  }, 60_000);

  it('cancel: the destination is removed, the source untouched and available', async () => {
    const source = await m.shareWithData('movable', 64 * 1024);
    const host = (await m.show(source.shareId)).host;
    const charlieShares = path.join(hawser.dataDir, 'pools', 'node-az2@charlie', 'pool1', 'shares');
    const charlieDirs = () => (fs.existsSync(charlieShares) ? fs.readdirSync(charlieShares) : []);
    const before = charlieDirs();
    const started = await m.start(source.shareId, CHARLIE, { new_share_type_id: anywhere });
    expect(started.status).toBe(202);
    await m.waitForTaskState(source.shareId, 'data_copying_completed');
    expect((await m.action(source.shareId, { migration_cancel: null })).status).toBe(202);
    const cancelled = await m.waitForTaskState(source.shareId, 'migration_cancelled');
    expect(cancelled).toMatchObject({ status: 'available', host });
    expect(sha256(path.join(source.dir, 'data.bin'))).toBe(source.checksum);
    const instances = await hawser.request('GET', `/v2/shares/${source.shareId}/instances`);
    expect(instances.body.share_instances).toHaveLength(1);
    expect(charlieDirs()).toEqual(before);
  }, 60_000);

  it("refuses with Manila's errors and writes nothing: a member (403), a missing flag, a bad combination, same host, an unknown service, a share network, a non-admin force", async () => {
    const source = await m.shareWithData('movable', 1024);
    const stream = async () =>
      (await hawser.request('GET', `/hawser/v1/streams/share-${source.shareId}`)).body.events
        .length as number;
    const before = await stream();
    expect((await m.start(source.shareId, CHARLIE, {}, MEMBER)).status).toBe(403);
    const missing = await m.action(source.shareId, { migration_start: { host: CHARLIE } });
    expect(missing.status).toBe(400);
    expect(missing.body.badRequest.message).toMatch(/Must specify all mandatory parameters/);
    const combination = await m.start(source.shareId, CHARLIE, { writable: true });
    expect(combination.body.badRequest.message).toMatch(/Invalid parameter combination/);
    const unknown = await m.start(source.shareId, 'nowhere@none#pool');
    expect(unknown.status).toBe(404);
    const network = await m.start(source.shareId, CHARLIE, { new_share_network_id: 'sn-1' });
    expect(network.body.badRequest.message).toMatch(/Share network sn-1 not found/);
    const notMigrating = await m.action(source.shareId, { migration_complete: null });
    expect(notMigrating.body.badRequest.message).toMatch(/no migration being performed/);
    expect(await stream()).toBe(before);
    const own = (await m.show(source.shareId)).host;
    const same = await m.start(source.shareId, own, { force_host_assisted_migration: false });
    expect(same.status).toBe(200);
    expect((await m.show(source.shareId)).task_state).toBe('migration_success');
  }, 60_000);

  it('a destination the scheduler filters refuse ends in migration_error, the source available', async () => {
    const source = await m.shareWithData('movable', 1024);
    // The share's type asks for back end alpha: CapabilitiesFilter refuses charlie.
    expect((await m.start(source.shareId, CHARLIE)).status).toBe(202);
    const failed = await m.waitForTaskState(source.shareId, 'migration_error');
    expect(failed.status).toBe('available');
    const instances = await hawser.request('GET', `/v2/shares/${source.shareId}/instances`);
    expect(instances.body.share_instances).toHaveLength(1);
    const messages = await hawser.request('GET', `/v2/messages?resource_id=${source.shareId}`);
    expect(messages.status).toBe(200);
    expect(messages.body.messages).toEqual([
      expect.objectContaining({
        action_id: '901',
        detail_id: '905',
        message_level: 'ERROR',
        resource_type: 'SHARE',
        resource_id: source.shareId,
        user_message: expect.stringMatching(/^migrate: The share could not be migrated/),
      }),
    ]);
  }, 60_000);
});

describe('share migration: a destination driver that fails', () => {
  let hawser: HawserTestServer;
  let m: ReturnType<typeof migrationSteps>;

  beforeAll(async () => {
    // The destination's driver fails its first call that creates a share: the migration's.
    hawser = await startHawser({
      backends: () =>
        (['src', 'dst'] as const).map((name) => ({
          name: `sim@${name}`,
          driver: 'simulated' as const,
          availabilityZone: 'az-1',
          pools: [{ name: 'fast', totalCapacityGb: 1000 }],
          options: name === 'dst' ? { failures: [{ operation: 'createShare', nthCall: 1 }] } : {},
        })),
    });
    m = migrationSteps(hawser);
    await createShareType(hawser, 'source', { share_backend_name: 'src' });
    await createShareType(hawser, 'destination', { share_backend_name: 'dst' });
  });
  afterAll(() => hawser.close());

  it('ends in migration_error with a user message: the source available and alone, the destination deleted', async () => {
    const created = await hawser.request('POST', '/v2/shares', {
      share: { share_proto: 'NFS', size: 1, share_type: 'source' },
    });
    const shareId = created.body.share.id as string;
    await eventually(
      async () => ((await m.show(shareId)).status === 'available' ? true : undefined),
      20_000,
      'the share to be available',
    );
    const destinationType = (await hawser.request('GET', '/v2/types/destination')).body.share_type
      .id as string;
    const started = await m.start(shareId, 'sim@dst#fast', {
      force_host_assisted_migration: false,
      new_share_type_id: destinationType,
    });
    expect(started.status).toBe(202);
    const failed = await m.waitForTaskState(shareId, 'migration_error');
    expect(failed).toMatchObject({ status: 'available', host: 'sim@src#fast' });
    await eventually(
      async () => {
        const listed = await hawser.request('GET', `/v2/shares/${shareId}/instances`);
        return listed.body.share_instances.length === 1 ? true : undefined;
      },
      20_000,
      'the destination to be deleted',
    );
    const messages = await hawser.request('GET', `/v2/messages?resource_id=${shareId}`);
    expect(messages.body.messages).toEqual([
      expect.objectContaining({ action_id: '901', detail_id: '905', resource_id: shareId }),
    ]);
    const detail = await hawser.request('GET', `/v2/shares/${shareId}`);
    expect(detail.body.share.share_type_name).toBe('source');
  }, 60_000);
});
