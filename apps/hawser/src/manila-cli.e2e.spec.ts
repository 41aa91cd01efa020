import { jest } from '@jest/globals';
import {
  CLI_STEP_TIMEOUT_MS,
  findManilaCli,
  parseProperties,
  parseTable,
  parseTables,
  propertiesOf,
  describeSkippedWithoutCli,
} from './test-support/manila-cli.js';
import { adminCliSession } from './test-support/admin-cli-session.js';
import { eventually } from './test-support/hawser-test-server.js';

/*
 * The admin guide's flow (share types, a share in a zone, its export locations, a snapshot, an
 * access rule, the pools) driven by the real manila CLI of python3-manilaclient, noauth with a
 * bypass URL. Each step checks its effect over HTTP too, not only the CLI's exit code.
 */

jest.setTimeout(CLI_STEP_TIMEOUT_MS);

const manila = findManilaCli();
const PROJECT = 'c0ffee00c0ffee00c0ffee00c0ffee00';

if (!manila) {
  describeSkippedWithoutCli('the manila CLI against Hawser');
} else {
  const { hawser, http, cli } = await adminCliSession(manila, PROJECT);
  describe('the manila CLI (python3-manilaclient) against Hawser, admin-guide flow', () => {
    let typeId: string;
    let shareId: string;
    let snapshotId: string | undefined;

    afterAll(() => hawser.close());

    const shareOverHttp = async (id: string) => (await http('GET', `/v2/shares/${id}`)).body.share;

    it('type-create default false: a public type without share servers', async () => {
      const created = parseProperties((await cli('type-create', 'default', 'false')).stdout);
      expect(created).toMatchObject({
        Name: 'default',
        Visibility: 'public',
        required_extra_specs: 'driver_handles_share_servers : False',
      });
      // GET /types/default is the configured default type, as in Manila: look it up by id.
      typeId = created.ID!;
      const type = (await http('GET', `/v2/types/${typeId}`)).body.share_type;
      expect(type).toMatchObject({
        name: 'default',
        extra_specs: { driver_handles_share_servers: 'False' },
        'share_type_access:is_public': true,
      });
    });

    it('type-key default set snapshot_support=True, seen by extra-specs-list', async () => {
      const set = await cli('type-key', 'default', 'set', 'snapshot_support=True');
      expect(set.stdout.trim()).toBe('');
      const [row] = parseTable((await cli('extra-specs-list')).stdout);
      expect(row).toMatchObject({ ID: typeId, Name: 'default' });
      expect(row!.all_extra_specs!.split('\n').sort()).toEqual([
        'driver_handles_share_servers : False',
        'snapshot_support : True',
      ]);
      expect((await http('GET', `/v2/types/${typeId}/extra_specs`)).body.extra_specs).toEqual({
        driver_handles_share_servers: 'False',
        snapshot_support: 'True',
      });
    });

    it('create NFS 1 --name my_share --share_type default --az az-1: creating, then available', async () => {
      const created = parseProperties(
        (
          await cli(
            'create',
            'NFS',
            '1',
            '--name',
            'my_share',
            '--description',
            'made by the manila CLI',
            '--share_type',
            'default',
            '--az',
            'az-1',
          )
        ).stdout,
      );
      expect(created).toMatchObject({
        name: 'my_share',
        description: 'made by the manila CLI',
        size: '1',
        share_proto: 'NFS',
        status: 'creating',
        availability_zone: 'az-1',
        share_type: typeId,
        share_type_name: 'default',
        project_id: PROJECT,
        user_id: 'admin',
        snapshot_support: 'True',
      });
      shareId = created.id!;
      const share = await eventually(
        async () => {
          const s = await shareOverHttp(shareId);
          return s?.status === 'available' ? s : undefined;
        },
        10_000,
        'the share to become available',
      );
      expect(share).toMatchObject({ name: 'my_share', availability_zone: 'az-1', size: 1 });
    });

    it('show my_share: found by name, placed in az-1, with its export locations', async () => {
      const shown = parseProperties((await cli('show', 'my_share')).stdout);
      const share = await shareOverHttp(shareId);
      expect(shown).toMatchObject({
        id: shareId,
        name: 'my_share',
        status: 'available',
        availability_zone: 'az-1',
        host: share.host,
      });
      expect(share.host).toMatch(/^sim@[ab]1#(fast|slow)$/);
      const locations = (await http('GET', `/v2/shares/${shareId}/export_locations`)).body
        .export_locations as { id: string; path: string }[];
      expect(locations.length).toBeGreaterThan(0);
      for (const location of locations) {
        expect(shown.export_locations).toContain(`id = ${location.id}`);
        expect(shown.export_locations).toContain(`path = ${location.path}`);
      }
    });

    it('list, list --name, list --soft-deleted: the share, by name, and no soft-deleted ones', async () => {
      const rows = parseTable((await cli('list')).stdout);
      expect(rows).toEqual([
        expect.objectContaining({
          ID: shareId,
          Name: 'my_share',
          Size: '1',
          'Share Proto': 'NFS',
          Status: 'available',
          'Share Type Name': 'default',
          'Availability Zone': 'az-1',
        }),
      ]);
      expect(parseTable((await cli('list', '--name', 'my_share')).stdout)).toEqual([
        expect.objectContaining({ ID: shareId }),
      ]);
      expect(parseTable((await cli('list', '--name', 'no_such_share')).stdout)).toEqual([]);
      expect(parseTable((await cli('list', '--soft-deleted')).stdout)).toEqual([]);
    });

    it('share-export-location-list my_share: the locations the API lists', async () => {
      const rows = parseTable((await cli('share-export-location-list', 'my_share')).stdout);
      const locations = (await http('GET', `/v2/shares/${shareId}/export_locations`)).body
        .export_locations as { id: string; path: string; preferred: boolean }[];
      expect(rows.map((r) => [r.ID, r.Path, r.Preferred]).sort()).toEqual(
        locations.map((l) => [l.id, l.path, l.preferred ? 'True' : 'False']).sort(),
      );
    });

    it('snapshot-create my_share --name my_snapshot: creating, then available', async () => {
      const created = parseProperties(
        (await cli('snapshot-create', 'my_share', '--name', 'my_snapshot')).stdout,
      );
      expect(created).toMatchObject({ name: 'my_snapshot', share_id: shareId, size: '1' });
      snapshotId = created.id!;
      const snapshot = await eventually(
        async () => {
          const s = (await http('GET', `/v2/snapshots/${snapshotId}`)).body.snapshot;
          return s?.status === 'available' ? s : undefined;
        },
        10_000,
        'the snapshot to become available',
      );
      expect(snapshot).toMatchObject({ name: 'my_snapshot', share_id: shareId });
    });

    it('snapshot-show my_snapshot: found by name, available', async () => {
      const shown = parseProperties((await cli('snapshot-show', 'my_snapshot')).stdout);
      expect(shown).toMatchObject({
        id: snapshotId,
        name: 'my_snapshot',
        share_id: shareId,
        status: 'available',
      });
    });

    it('access-allow my_share ip 10.0.0.0/24 --access-level rw, then access-list: active', async () => {
      const allowed = parseProperties(
        (await cli('access-allow', 'my_share', 'ip', '10.0.0.0/24', '--access-level', 'rw')).stdout,
      );
      expect(allowed).toMatchObject({
        share_id: shareId,
        access_type: 'ip',
        access_to: '10.0.0.0/24',
        access_level: 'rw',
      });
      await eventually(
        async () => {
          const s = await shareOverHttp(shareId);
          return s.access_rules_status === 'active' ? s : undefined;
        },
        10_000,
        'the access rules to be applied',
      );
      const rows = parseTable((await cli('access-list', 'my_share')).stdout);
      expect(rows).toEqual([
        expect.objectContaining({
          id: allowed.id,
          access_type: 'ip',
          access_to: '10.0.0.0/24',
          access_level: 'rw',
          state: 'active',
        }),
      ]);
    });

    it('access-metadata RULE set owner=ops, then unset owner: seen on the rule', async () => {
      const rules = (await http('GET', `/v2/share-access-rules?share_id=${shareId}`)).body
        .access_list as { id: string }[];
      const ruleId = rules[0]!.id;
      const ruleOverHttp = async () =>
        (await http('GET', `/v2/share-access-rules/${ruleId}`)).body.access;
      await cli('access-metadata', ruleId, 'set', 'owner=ops', 'team=db');
      expect((await ruleOverHttp()).metadata).toEqual({ owner: 'ops', team: 'db' });
      await cli('access-metadata', ruleId, 'unset', 'owner');
      expect((await ruleOverHttp()).metadata).toEqual({ team: 'db' });
    });

    it('pool-list --detail: every simulated pool with its capabilities', async () => {
      const overHttp = (await http('GET', '/v2/scheduler-stats/pools/detail')).body.pools as {
        name: string;
        capabilities: Record<string, unknown>;
      }[];
      const tables = parseTables((await cli('pool-list', '--detail')).stdout).map(propertiesOf);
      expect(tables.map((t) => t.name).sort()).toEqual(overHttp.map((p) => p.name).sort());
      expect(tables.map((t) => t.name)).toContain((await shareOverHttp(shareId)).host as string);
      for (const table of tables) {
        expect(Number(table.total_capacity_gb)).toBeGreaterThan(0);
        expect(table).toHaveProperty('free_capacity_gb');
      }
    });

    it('snapshot-delete my_snapshot: gone', async () => {
      expect(snapshotId).toBeDefined();
      await cli('snapshot-delete', 'my_snapshot');
      await eventually(
        async () =>
          (await http('GET', `/v2/snapshots/${snapshotId}`)).status === 404 ? true : undefined,
        10_000,
        'the snapshot to be deleted',
      );
    });

    it("absolute-limits: the project's quota limits and what its share uses", async () => {
      const limits = Object.fromEntries(
        parseTable((await cli('absolute-limits')).stdout).map((row) => [row.Name, row.Value]),
      );
      const quota = (await http('GET', `/v2/quota-sets/${PROJECT}/detail`)).body.quota_set;
      expect(limits).toMatchObject({
        maxTotalShares: String(quota.shares.limit),
        totalSharesUsed: '1',
        totalShareGigabytesUsed: '1',
        maxTotalShareSnapshots: String(quota.snapshots.limit),
        totalShareReplicasUsed: '0',
      });
    });

    it('delete my_share, then type-delete default: both gone', async () => {
      await cli('delete', 'my_share');
      await eventually(
        async () =>
          (await http('GET', `/v2/shares/${shareId}`)).status === 404 ? true : undefined,
        10_000,
        'the share to be deleted',
      );
      expect(parseTable((await cli('list')).stdout)).toEqual([]);
      await cli('type-delete', 'default');
      expect((await http('GET', `/v2/types/${typeId}`)).status).toBe(404);
    });
  });
}
