import {
  eventually,
  startHawser,
  type HawserTestServer,
} from './test-support/hawser-test-server.js';
import { migrationSteps } from './test-support/share-migration.js';

/*
 * The seed's ask: a migration honours the share's affinity and anti-affinity hints, and an
 * admin may override them with `force`, which the share's stream records.
 */

const MEMBER = 'alice:44444444444444444444444444444444:member,reader';
const POOL_A = 'sim@a1#fast';
const POOL_B = 'sim@b1#fast';
const POOL_C = 'sim@a2#fast';

describe('share migration and scheduler hints (simulated back ends)', () => {
  let hawser: HawserTestServer;
  let m: ReturnType<typeof migrationSteps>;

  beforeAll(async () => {
    hawser = await startHawser();
    m = migrationSteps(hawser);
    const type = await hawser.request('POST', '/v2/types', {
      share_type: { name: 'default', extra_specs: { driver_handles_share_servers: 'false' } },
    });
    expect(type.status).toBe(200);
  });
  afterAll(() => hawser.close());

  const create = async (hints: Record<string, string>) => {
    const created = await hawser.request(
      'POST',
      '/v2/shares',
      {
        share: { share_proto: 'NFS', size: 1, share_type: 'default', scheduler_hints: hints },
      },
      { version: '2.67' },
    );
    expect(created.status).toBe(200);
    const id = created.body.share.id as string;
    await eventually(
      async () => ((await m.show(id)).status === 'available' ? true : undefined),
      10_000,
      'share to be available',
    );
    return id;
  };
  const driverAssisted = { force_host_assisted_migration: false, preserve_metadata: true };
  const migrated = async (id: string, host: string) => {
    await m.waitForTaskState(id, 'migration_driver_phase1_done');
    expect((await m.action(id, { migration_complete: null })).status).toBe(202);
    await m.waitForTaskState(id, 'migration_success');
    expect((await m.show(id)).host).toBe(host);
  };
  const eventsOf = async (id: string) =>
    (await hawser.request('GET', `/hawser/v1/streams/share-${id}`)).body.events as {
      type: string;
      data: Record<string, unknown>;
      metadata: Record<string, unknown>;
    }[];

  it('same_host: a destination without the partner is refused (400 naming the hint and the share); force moves it, recorded with who; back to the partner is allowed', async () => {
    const partner = await create({ only_host: POOL_A });
    const share = await create({ same_host: partner });
    expect((await m.show(share)).host).toBe(POOL_A);
    const before = (await eventsOf(share)).length;

    const refused = await m.start(share, POOL_B, driverAssisted);
    expect(refused.status).toBe(400);
    expect(refused.body.badRequest.message).toContain(`same_host names share ${partner}`);
    expect((await eventsOf(share)).length).toBe(before);

    const forced = await m.start(share, POOL_B, { ...driverAssisted, force: true });
    expect(forced.status).toBe(202);
    const started = (await eventsOf(share)).find((e) => e.type === 'ShareMigrationStarted');
    expect(started?.data.hintsOverride).toEqual({
      userId: 'admin',
      projectId: '11111111111111111111111111111111',
      broken: [{ hint: 'same_host', shareId: partner }],
    });
    await migrated(share, POOL_B);

    // Back next to its partner: the hint holds there, no force needed.
    expect((await m.start(share, POOL_A, driverAssisted)).status).toBe(202);
    await migrated(share, POOL_A);
    const restarted = (await eventsOf(share)).filter((e) => e.type === 'ShareMigrationStarted');
    expect(restarted[1]?.data.hintsOverride).toBeNull();
    // The link still holds both ways after the moves.
    const metadata = await hawser.request('GET', `/v2/shares/${partner}/metadata`);
    expect(metadata.body.metadata.__affinity_same_host).toContain(share);
  }, 60_000);

  it("different_host: the partner's pool is refused without force and allowed with force; another pool needs none", async () => {
    const partner = await create({ only_host: POOL_B });
    const share = await create({ different_host: partner });
    const target = (await m.show(share)).host === POOL_C ? POOL_A : POOL_C;

    const refused = await m.start(share, POOL_B, driverAssisted);
    expect(refused.status).toBe(400);
    expect(refused.body.badRequest.message).toContain(`different_host names share ${partner}`);

    expect((await m.start(share, target, driverAssisted)).status).toBe(202);
    await migrated(share, target);

    expect((await m.start(share, POOL_B, { ...driverAssisted, force: true })).status).toBe(202);
    await migrated(share, POOL_B);
  }, 60_000);

  it("a member's migration (force or not) is refused by policy (403), and nothing is written", async () => {
    const partner = await create({ only_host: POOL_A });
    const share = await create({ same_host: partner });
    const before = (await eventsOf(share)).length;
    const forced = await m.start(share, POOL_B, { ...driverAssisted, force: true }, MEMBER);
    expect(forced.status).toBe(403);
    expect((await eventsOf(share)).length).toBe(before);
  }, 30_000);
});
