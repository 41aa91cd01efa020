import fs from 'node:fs';
import path from 'node:path';
import { eventually, type HawserTestServer } from './test-support/hawser-test-server.js';
import {
  createShareType,
  migrationSteps,
  startMigrationHawser,
} from './test-support/share-migration.js';

const MIB = 1024 * 1024;
const CHARLIE = 'node-az2@charlie#pool1';
const CLIENTS = '192.0.2.0/24';

/*
 * A migration and the share's other actions over HTTP, on local back ends with real exports
 * files: the source's rules go read-only while a copy that cannot keep the share writable runs
 * and come back at their levels; a share busy with a migration task refuses other changes with
 * Manila's ShareBusyException, whatever its status says.
 */
describe('share migration: access rules and a busy share over HTTP', () => {
  let hawser: HawserTestServer;
  let m: ReturnType<typeof migrationSteps>;

  beforeAll(async () => {
    hawser = await startMigrationHawser();
    m = migrationSteps(hawser);
    await createShareType(hawser, 'anywhere', { snapshot_support: 'true' });
  }, 60_000);
  afterAll(() => hawser.close());

  /** The exports line of `dir` in its back end's exports file (what the NFS server reads). */
  const exportsLine = (host: string, dir: string): string | undefined => {
    const file = path.join(hawser.dataDir, 'pools', host.split('#')[0]!, 'exports');
    const lines = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n') : [];
    return lines.find((line) => line.startsWith(`${dir} `));
  };
  const accessList = async (shareId: string) =>
    (await hawser.request('GET', `/v2/share-access-rules?share_id=${shareId}`)).body
      .access_list as { access_to: string; access_level: string; state: string }[];
  const instancesOf = async (shareId: string) =>
    (await hawser.request('GET', `/v2/shares/${shareId}/instances`)).body.share_instances as {
      id: string;
      status: string;
      cast_rules_to_readonly: boolean;
    }[];
  const waitForExport = (host: string, dir: string, level: 'rw' | 'ro') =>
    eventually(
      async () =>
        exportsLine(host, dir) === `${dir} ${CLIENTS}(${level},sync,no_subtree_check)`
          ? true
          : undefined,
      20_000,
      `${dir} exported ${level}`,
    );
  /** The share's one rule, once it is `active` again with its own level. */
  const ruleActive = (shareId: string) =>
    eventually(
      async () => {
        const rules = await accessList(shareId);
        return rules.length === 1 && rules[0]?.state === 'active' ? rules : undefined;
      },
      20_000,
      'the rule to be active',
    );
  /** A share with data and one `rw` rule applied, and a host to migrate it to. */
  const servedShare = async (bytes: number) => {
    const source = await m.shareWithData('anywhere', bytes);
    const host = (await m.show(source.shareId)).host;
    const allowed = await hawser.request('POST', `/v2/shares/${source.shareId}/action`, {
      allow_access: { access_type: 'ip', access_to: CLIENTS, access_level: 'rw' },
    });
    expect(allowed.status).toBe(200);
    await waitForExport(host, source.dir, 'rw');
    await ruleActive(source.shareId);
    const target = host === CHARLIE ? 'node-az1@alpha#pool2' : CHARLIE;
    return { ...source, host, target, accessId: allowed.body.access.id as string };
  };

  it('host-assisted with writable false: the source is exported read-only through the copy, the new instance read-write after completion', async () => {
    const share = await servedShare(4 * MIB);
    expect((await m.start(share.shareId, share.target)).status).toBe(202);
    await m.waitForTaskState(share.shareId, 'data_copying_completed', 60_000);

    // The rule keeps its level in the access list; the back end applies it read-only.
    expect(exportsLine(share.host, share.dir)).toBe(
      `${share.dir} ${CLIENTS}(ro,sync,no_subtree_check)`,
    );
    expect(await accessList(share.shareId)).toEqual([
      expect.objectContaining({ access_to: CLIENTS, access_level: 'rw', state: 'active' }),
    ]);
    const during = await instancesOf(share.shareId);
    expect(during.find((i) => i.status === 'migrating')?.cast_rules_to_readonly).toBe(true);
    expect(during.find((i) => i.status === 'migrating_to')?.cast_rules_to_readonly).toBe(false);

    expect((await m.action(share.shareId, { migration_complete: null })).status).toBe(202);
    await m.waitForTaskState(share.shareId, 'migration_success');
    const moved = await m.directoryOf(share.shareId);
    await waitForExport(share.target, moved, 'rw');
    expect(exportsLine(share.host, share.dir)).toBeUndefined();
    expect(await ruleActive(share.shareId)).toEqual([
      expect.objectContaining({ access_to: CLIENTS, access_level: 'rw', state: 'active' }),
    ]);
    expect(await instancesOf(share.shareId)).toEqual([
      expect.objectContaining({ status: 'available', cast_rules_to_readonly: false }),
    ]);
  }, 120_000);

  it('a cancelled migration gives the source its read-write export back', async () => {
    const share = await servedShare(64 * 1024);
    expect((await m.start(share.shareId, share.target)).status).toBe(202);
    await m.waitForTaskState(share.shareId, 'data_copying_completed');
    expect(exportsLine(share.host, share.dir)).toBe(
      `${share.dir} ${CLIENTS}(ro,sync,no_subtree_check)`,
    );
    expect((await m.action(share.shareId, { migration_cancel: null })).status).toBe(202);
    await m.waitForTaskState(share.shareId, 'migration_cancelled');
    await waitForExport(share.host, share.dir, 'rw');
    expect(await ruleActive(share.shareId)).toEqual([
      expect.objectContaining({ access_to: CLIENTS, access_level: 'rw', state: 'active' }),
    ]);
    expect(await instancesOf(share.shareId)).toEqual([
      expect.objectContaining({ status: 'available', cast_rules_to_readonly: false }),
    ]);
  }, 60_000);

  it("a share busy with a migration task refuses every change with Manila's ShareBusyException, and writes nothing", async () => {
    const share = await servedShare(1024);
    const stream = async () =>
      (await hawser.request('GET', `/hawser/v1/streams/share-${share.shareId}`)).body.events
        .length as number;
    // The share stays available: only its task state says it is busy.
    const reset = await m.action(share.shareId, {
      reset_task_state: { task_state: 'data_copying_completed' },
    });
    expect(reset.status).toBe(202);
    expect(await m.show(share.shareId)).toMatchObject({
      status: 'available',
      task_state: 'data_copying_completed',
    });
    const before = await stream();
    const busy = `Share is busy with an active task: Share ${share.shareId} is busy as part of an active task: data_copying_completed.`;
    const action = (body: unknown) =>
      hawser.request('POST', `/v2/shares/${share.shareId}/action`, body);
    const refusals: [
      string,
      Promise<{ status: number; body: Record<string, { message: string }> }>,
      number,
    ][] = [
      ['extend', action({ extend: { new_size: 2 } }), 400],
      ['shrink', action({ shrink: { new_size: 1 } }), 400],
      [
        'snapshot',
        hawser.request('POST', '/v2/snapshots', { snapshot: { share_id: share.shareId } }),
        400,
      ],
      [
        'allow access',
        action({
          allow_access: { access_type: 'ip', access_to: '198.51.100.7', access_level: 'ro' },
        }),
        400,
      ],
      ['deny access', action({ deny_access: { access_id: share.accessId } }), 400],
      ['unmanage', action({ unmanage: null }), 400],
      ['soft delete', action({ soft_delete: null }), 403],
      ['delete', hawser.request('DELETE', `/v2/shares/${share.shareId}`), 400],
    ];
    for (const [name, request, status] of refusals) {
      const answer = await request;
      expect({ name, status: answer.status }).toEqual({ name, status });
      expect({ name, message: Object.values(answer.body)[0]?.message }).toEqual({
        name,
        message: busy,
      });
    }
    expect(await stream()).toBe(before);

    // Once the task is over the same share takes them again.
    await m.action(share.shareId, { reset_task_state: { task_state: 'migration_success' } });
    expect((await action({ extend: { new_size: 2 } })).status).toBe(202);
  }, 60_000);
});
