import { jest } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BackendConfig } from '#hawser/drivers';
import {
  eventually,
  startHawser,
  type HawserTestServer,
} from './test-support/hawser-test-server.js';
import { availableDefaultShare, availableSnapshot } from './test-support/default-share-type.js';
import { findManilaCli, parseTable } from './test-support/manila-cli.js';
import { freePort, nfs, nfsUnavailableReason, nfsUrl } from './test-support/nfs-client.js';
import { ADMIN, MEMBER, memberCli } from './test-support/served-share.js';

/*
 * Mountable snapshots (2.32) on a local back end whose share node runs NFS-Ganesha: a snapshot
 * of a type with mount_snapshot_support gets an export location; its read-only rules let a
 * real client (libnfs) read the snapshot's files and refuse its writes; the manila CLI drives
 * the same through snapshot-access-allow, -list, -deny and snapshot-export-location-list.
 */

jest.setTimeout(120_000);

const unavailable = nfsUnavailableReason();

const servedBackend =
  (port: number) =>
  (dataDir: string): BackendConfig[] => [
    {
      name: 'node-az1@alpha',
      driver: 'local',
      availabilityZone: 'az-1',
      pools: [{ name: 'pool1' }],
      options: {
        root: path.join(dataDir, 'pools'),
        nfsServer: { address: '127.0.0.1', port, bindAddress: '0.0.0.0' },
      },
    },
  ];

interface SnapshotLocation {
  id: string;
  path: string;
  is_admin_only?: boolean;
  share_snapshot_instance_id?: string;
}

if (unavailable) {
  describe('mountable snapshots through Ganesha', () => {
    it.skip(`skipped: ${unavailable}`, () => {
      expect(nfsUnavailableReason()).toBeNull();
    });
  });
} else {
  describe('mountable snapshots (2.32): read-only over NFS through Ganesha, real client', () => {
    // Runs in order: the rule one step allows, the next denies.
    let hawser: HawserTestServer;
    let port: number;
    let scratch: string;
    let shareId: string;
    let snapshotId: string;
    let location: string;

    const as =
      (token: string) =>
      (method: string, route: string, body?: unknown, version = '2.32') =>
        hawser.request(method, route, body, { token, version });
    const member = as(MEMBER);
    const admin = as(ADMIN);
    const snapshotAction = (body: unknown, version = '2.32') =>
      member('POST', `/v2/snapshots/${snapshotId}/action`, body, version);
    const accessList = async () =>
      (await member('GET', `/v2/snapshots/${snapshotId}/access-list`)).body
        .snapshot_access_list as { id: string; state: string }[];
    const readSnapshot = (file: string) => nfs('nfs-cat', [nfsUrl(location, port, file)]);

    const availableShare = (type: string) =>
      availableDefaultShare((m, r, b) => member(m, r, b), { share_type: type });
    const snapshotOf = (share: string) => availableSnapshot((m, r, b) => member(m, r, b), share);

    beforeAll(async () => {
      scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-snapshot-client-'));
      port = await freePort();
      hawser = await startHawser({ backends: servedBackend(port) });
      // `plain` names no mount_snapshot_support: its shares land on the same pool, unmountable.
      for (const [name, mount] of [
        ['mountable', { mount_snapshot_support: 'true' }],
        ['plain', {}],
      ] as const) {
        const type = await admin('POST', '/v2/types', {
          share_type: {
            name,
            extra_specs: {
              driver_handles_share_servers: 'false',
              snapshot_support: 'true',
              ...mount,
            },
          },
        });
        expect(type.status).toBe(200);
      }
      shareId = await availableShare('mountable');
      const shareDir = (
        (await admin('GET', `/v2/shares/${shareId}/export_locations`)).body
          .export_locations as SnapshotLocation[]
      ).find((l) => l.is_admin_only)?.path as string;
      fs.writeFileSync(path.join(shareDir, 'kept.txt'), 'as it was when the snapshot was taken');
      snapshotId = await snapshotOf(shareId);
      fs.writeFileSync(path.join(shareDir, 'kept.txt'), 'changed after the snapshot');
    });
    afterAll(async () => {
      await hawser?.close();
      fs.rmSync(scratch, { recursive: true, force: true });
    });

    it('lists the snapshot export location from 2.32: address:/snapshot-<id> for members, its directory for admins too', async () => {
      const url = `/v2/snapshots/${snapshotId}/export-locations`;
      expect((await member('GET', url, undefined, '2.31')).status).toBe(404);
      const listed = await member('GET', url);
      expect(listed.status).toBe(200);
      const locations = listed.body.share_snapshot_export_locations as SnapshotLocation[];
      expect(locations).toHaveLength(1);
      expect(Object.keys(locations[0] as object).sort()).toEqual(['id', 'links', 'path']);
      location = (locations[0] as SnapshotLocation).path;
      expect(location).toMatch(/^127\.0\.0\.1:\/snapshot-[0-9a-f-]+$/);

      const forAdmin = (await admin('GET', url)).body
        .share_snapshot_export_locations as SnapshotLocation[];
      expect(forAdmin).toHaveLength(2);
      expect(Object.keys(forAdmin[0] as object).sort()).toEqual([
        'id',
        'is_admin_only',
        'links',
        'path',
        'share_snapshot_instance_id',
      ]);
      const shown = await member('GET', `${url}/${(locations[0] as SnapshotLocation).id}`);
      expect(Object.keys(shown.body.share_snapshot_export_location).sort()).toEqual([
        'created_at',
        'id',
        'links',
        'path',
        'updated_at',
      ]);
      expect(shown.body.share_snapshot_export_location.created_at).toMatch(
        /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/,
      );

      const instanceId = (forAdmin[0] as SnapshotLocation).share_snapshot_instance_id as string;
      const ofInstance = await admin(
        'GET',
        `/v2/snapshot-instances/${instanceId}/export-locations`,
      );
      expect(ofInstance.body.share_snapshot_export_locations).toEqual(forAdmin);
      const oneOfInstance = await admin(
        'GET',
        `/v2/snapshot-instances/${instanceId}/export-locations/${(forAdmin[1] as SnapshotLocation).id}`,
      );
      expect(oneOfInstance.body.share_snapshot_export_location).toMatchObject({
        is_admin_only: true,
      });
    });

    it('serves none of the 2.32 routes at 2.31 (404 before any check)', async () => {
      const [first] = (await admin('GET', `/v2/snapshots/${snapshotId}/export-locations`)).body
        .share_snapshot_export_locations as SnapshotLocation[];
      const instance = first?.share_snapshot_instance_id as string;
      const early = [
        await member('GET', `/v2/snapshots/${snapshotId}/access-list`, undefined, '2.31'),
        await member(
          'GET',
          `/v2/snapshots/${snapshotId}/export-locations/${first?.id}`,
          undefined,
          '2.31',
        ),
        await admin(
          'GET',
          `/v2/snapshot-instances/${instance}/export-locations`,
          undefined,
          '2.31',
        ),
        await admin(
          'GET',
          `/v2/snapshot-instances/${instance}/export-locations/${first?.id}`,
          undefined,
          '2.31',
        ),
        await snapshotAction({ deny_access: { access_id: 'any' } }, '2.31'),
      ];
      expect(early.map((r) => r.status)).toEqual([404, 404, 404, 404, 404]);
    });

    it('refuses every client while the snapshot has no rule', async () => {
      expect(await accessList()).toEqual([]);
      expect((await readSnapshot('kept.txt')).code).not.toBe(0);
    });

    it('allow_access ip 127.0.0.1 (202, queued_to_apply, then active): the snapshot reads back as it was, and a write is refused', async () => {
      expect(
        (
          await snapshotAction(
            { allow_access: { access_type: 'ip', access_to: '127.0.0.1' } },
            '2.31',
          )
        ).status,
      ).toBe(404);
      const allowed = await snapshotAction({
        allow_access: { access_type: 'ip', access_to: '127.0.0.1' },
      });
      expect(allowed.status).toBe(202);
      expect(allowed.body.snapshot_access).toMatchObject({
        access_type: 'ip',
        access_to: '127.0.0.1',
        state: 'queued_to_apply',
      });
      await eventually(
        async () => ((await accessList())[0]?.state === 'active' ? true : undefined),
        15_000,
        'the snapshot rule to be active',
      );
      const read = await readSnapshot('kept.txt');
      expect(read).toMatchObject({ code: 0, stdout: 'as it was when the snapshot was taken' });

      const local = path.join(scratch, 'attempt.txt');
      fs.writeFileSync(local, 'must not land');
      const write = await nfs('nfs-cp', [local, nfsUrl(location, port, 'attempt.txt')]);
      expect(write.code).not.toBe(0);
      expect((await readSnapshot('attempt.txt')).code).not.toBe(0);

      const twice = await snapshotAction({
        allow_access: { access_type: 'ip', access_to: '127.0.0.1' },
      });
      expect(twice.status).toBe(400);
      expect(twice.body.badRequest.message).toBe('Share snapshot access ip:127.0.0.1 exists.');
    });

    it('deny_access (202): the rule goes and the client is refused again', async () => {
      const [rule] = await accessList();
      expect((await snapshotAction({ deny_access: { access_id: 'nope' } })).status).toBe(400);
      const denied = await snapshotAction({ deny_access: { access_id: rule?.id } });
      expect(denied.status).toBe(202);
      await eventually(
        async () => ((await accessList()).length === 0 ? true : undefined),
        15_000,
        'the snapshot rule to be gone',
      );
      expect((await readSnapshot('kept.txt')).code).not.toBe(0);
    });

    it("refuses access rules on a snapshot whose share's type does not mount snapshots (400), and lists no export location for it", async () => {
      const plainShare = await availableShare('plain');
      const plainSnapshot = await snapshotOf(plainShare);
      const refused = await member('POST', `/v2/snapshots/${plainSnapshot}/action`, {
        allow_access: { access_type: 'ip', access_to: '127.0.0.1' },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.badRequest.message).toBe(
        `Cannot control access to the snapshot ${plainSnapshot} since the parent share ${plainShare} does not support mounting its snapshots.`,
      );
      const listed = await member('GET', `/v2/snapshots/${plainSnapshot}/access-list`);
      expect(listed.status).toBe(400);
      const locations = await member('GET', `/v2/snapshots/${plainSnapshot}/export-locations`);
      expect(locations.body.share_snapshot_export_locations).toEqual([]);
    });

    // Each CLI call starts a Python interpreter: slow on a loaded machine.
    it('the manila CLI: snapshot-export-location-list, snapshot-access-allow, snapshot-access-list, nfs-cat, snapshot-access-deny', async () => {
      const manila = findManilaCli();
      if (!manila) {
        throw new Error('no manila command on PATH (apt-get install python3-manilaclient)');
      }
      const cli = memberCli(manila, hawser);
      const rows = parseTable(await cli('snapshot-export-location-list', snapshotId));
      expect(rows.map((r) => r.Path)).toContain(location);
      await cli('snapshot-access-allow', snapshotId, 'ip', '127.0.0.0/8');
      const active = await eventually(
        async () => {
          const listed = parseTable(await cli('snapshot-access-list', snapshotId));
          return listed[0]?.state === 'active' ? listed[0] : undefined;
        },
        60_000,
        'the CLI snapshot rule to be active',
      );
      expect(active).toMatchObject({ access_type: 'ip', access_to: '127.0.0.0/8' });
      expect((await readSnapshot('kept.txt')).stdout).toBe('as it was when the snapshot was taken');
      await cli('snapshot-access-deny', snapshotId, active.id as string);
      await eventually(
        async () =>
          parseTable(await cli('snapshot-access-list', snapshotId)).length === 0 ? true : undefined,
        60_000,
        'the CLI snapshot rule to be gone',
      );
      expect((await readSnapshot('kept.txt')).code).not.toBe(0);
    }, 300_000);
  });
}
