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
import { cliSteps, findManilaCli, parseProperties, parseTable } from './test-support/manila-cli.js';
import {
  createClientNamespace,
  freePort,
  nfs,
  nfsUnavailableReason,
  nfsUrl,
  type ClientNamespace,
} from './test-support/nfs-client.js';

/*
 * Shares on local back ends served over NFSv4 by the Ganesha each share node runs: a real
 * client (libnfs) writes and reads through the export location, and only the addresses the
 * access rules name get in.
 */

jest.setTimeout(120_000);

const MEMBER = 'alice:22222222222222222222222222222222:member,reader';
const ADMIN = 'admin:22222222222222222222222222222222:admin,member,reader';
const unavailable = nfsUnavailableReason();

const exportingBackends =
  (ports: { alpha: number; bravo: number }) =>
  (dataDir: string): BackendConfig[] =>
    (['alpha', 'bravo'] as const).map((name, index) => ({
      name: `node-az${index + 1}@${name}`,
      driver: 'local',
      availabilityZone: `az-${index + 1}`,
      replicationDomain: 'blue',
      pools: [{ name: 'pool1' }],
      options: {
        root: path.join(dataDir, 'pools'),
        nfsServer: { address: '127.0.0.1', port: ports[name], bindAddress: '0.0.0.0' },
      },
    }));

if (unavailable) {
  describe('NFS exports through Ganesha', () => {
    it.skip(`skipped: ${unavailable}`, () => {
      expect(nfsUnavailableReason()).toBeNull();
    });
  });
} else {
  describe('NFS exports through Ganesha (local back ends, real client)', () => {
    let hawser: HawserTestServer;
    let ports: { alpha: number; bravo: number };
    let namespace: ClientNamespace;
    let scratch: string;
    let shareId: string;
    let location: string;
    let directory: string;

    const member = (method: string, route: string, body?: unknown) =>
      hawser.request(method, route, body, { token: MEMBER });
    const admin = (method: string, route: string, body?: unknown) =>
      hawser.request(method, route, body, { token: ADMIN });
    const locationsOf = async (route: string) =>
      (await admin('GET', route)).body.export_locations as {
        path: string;
        is_admin_only: boolean;
        preferred: boolean;
      }[];
    const allow = async (accessTo: string, level: 'rw' | 'ro') => {
      const allowed = await member('POST', `/v2/shares/${shareId}/action`, {
        allow_access: { access_type: 'ip', access_to: accessTo, access_level: level },
      });
      expect(allowed.status).toBe(200);
      const id = allowed.body.access.id as string;
      await ruleState(id, 'active');
      return id;
    };
    const ruleState = (id: string, state: string) =>
      eventually(
        async () => {
          const shown = await member('GET', `/v2/share-access-rules/${id}`);
          return shown.body.access?.state === state ? shown.body.access : undefined;
        },
        15_000,
        `rule ${id} to be ${state}`,
      );
    const deny = async (id: string) => {
      const denied = await member('POST', `/v2/shares/${shareId}/action`, {
        deny_access: { access_id: id },
      });
      expect(denied.status).toBe(202);
      await eventually(
        async () =>
          (await member('GET', `/v2/share-access-rules/${id}`)).status === 404 ? true : undefined,
        15_000,
        `rule ${id} to be gone`,
      );
    };
    const localFile = (name: string, content: string) => {
      const file = path.join(scratch, name);
      fs.writeFileSync(file, content);
      return file;
    };
    const copyIn = (name: string, content: string, netns?: string, host?: string) =>
      nfs('nfs-cp', [localFile(name, content), nfsUrl(location, ports.alpha, name, host)], netns);
    const readBack = (name: string, netns?: string, host?: string) =>
      nfs('nfs-cat', [nfsUrl(location, ports.alpha, name, host)], netns);

    beforeAll(async () => {
      scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-nfs-client-'));
      ports = { alpha: await freePort(), bravo: await freePort() };
      hawser = await startHawser({
        backends: exportingBackends(ports),
        env: { HAWSER_REPLICA_STATE_UPDATE_INTERVAL_S: '1' },
      });
      const type = await admin('POST', '/v2/types', {
        share_type: {
          name: 'readable',
          extra_specs: { driver_handles_share_servers: 'false', replication_type: 'readable' },
        },
      });
      expect(type.status).toBe(200);
      const created = await member('POST', '/v2/shares', {
        share: { share_proto: 'NFS', size: 1, share_type: 'readable', availability_zone: 'az-1' },
      });
      expect(created.status).toBe(200);
      shareId = created.body.share.id;
      await eventually(
        async () =>
          (await member('GET', `/v2/shares/${shareId}`)).body.share?.status === 'available'
            ? true
            : undefined,
        15_000,
        'the share to be available',
      );
      const locations = await locationsOf(`/v2/shares/${shareId}/export_locations`);
      location = locations.find((l) => l.preferred && !l.is_admin_only)?.path ?? '';
      directory = locations.find((l) => l.is_admin_only)?.path ?? '';
      namespace = await createClientNamespace(
        `nfs${process.pid % 10000}`,
        '169.254.77.1',
        '169.254.77.2',
        30,
      );
    });
    afterAll(async () => {
      await namespace?.remove();
      await hawser?.close();
      fs.rmSync(scratch, { recursive: true, force: true });
    });

    it('gives the share an export location address:/pseudo, preferred, and its directory admin-only', () => {
      expect(location).toMatch(/^127\.0\.0\.1:\/share-[0-9a-f-]+$/);
      expect(path.isAbsolute(directory)).toBe(true);
    });

    it('refuses every client while the share has no rule', async () => {
      const refused = await copyIn('before.txt', 'no rule yet');
      expect(refused.code).not.toBe(0);
      expect(fs.existsSync(path.join(directory, 'before.txt'))).toBe(false);
    });

    it('lets 127.0.0.1 write once allowed rw: the file reads back over NFS and is in the directory', async () => {
      const ruleId = await allow('127.0.0.1', 'rw');
      const copied = await copyIn('hello.txt', 'written over NFS');
      expect(copied).toMatchObject({ code: 0 });
      expect((await readBack('hello.txt')).stdout).toBe('written over NFS');
      expect(fs.readFileSync(path.join(directory, 'hello.txt'), 'utf8')).toBe('written over NFS');
      await deny(ruleId);
    });

    it('serves an ro rule read-only: reads work, the write is refused', async () => {
      const ruleId = await allow('127.0.0.1', 'ro');
      expect((await readBack('hello.txt')).stdout).toBe('written over NFS');
      const refused = await copyIn('ro.txt', 'must not land');
      expect(refused.code).not.toBe(0);
      expect(fs.existsSync(path.join(directory, 'ro.txt'))).toBe(false);
      await deny(ruleId);
    });

    it('refuses the next client operation after deny_access', async () => {
      const ruleId = await allow('127.0.0.0/8', 'rw');
      expect((await readBack('hello.txt')).code).toBe(0);
      await deny(ruleId);
      const refused = await readBack('hello.txt');
      expect(refused.code).not.toBe(0);
    });

    it('lets in only the allowed address: a client at 169.254.77.2 is refused until its rule, 127.0.0.1 stays out', async () => {
      const host = namespace.hostAddress;
      const before = await readBack('hello.txt', namespace.name, host);
      expect(before.code).not.toBe(0);
      const ruleId = await allow(namespace.clientAddress, 'rw');
      const copied = await copyIn('from-namespace.txt', 'from 169.254.77.2', namespace.name, host);
      expect(copied).toMatchObject({ code: 0 });
      expect(fs.readFileSync(path.join(directory, 'from-namespace.txt'), 'utf8')).toBe(
        'from 169.254.77.2',
      );
      expect((await readBack('hello.txt')).code).not.toBe(0);
      await deny(ruleId);
      expect((await readBack('hello.txt', namespace.name, host)).code).not.toBe(0);
    });

    it('the manila CLI: create, access-allow ip 127.0.0.1, then nfs-ls the export location it lists', async () => {
      const manila = findManilaCli();
      if (!manila)
        throw new Error('no manila command on PATH (apt-get install python3-manilaclient)');
      const cli = async (...args: string[]) =>
        (
          await cliSteps(manila, {
            url: hawser.url,
            userId: 'alice',
            projectId: '22222222222222222222222222222222',
            microversion: '2.72',
          })(...args)
        ).stdout;
      const created = parseProperties(
        await cli(
          'create',
          'NFS',
          '1',
          '--name',
          'cli_share',
          '--share-type',
          'readable',
          '--availability-zone',
          'az-1',
        ),
      );
      await eventually(
        async () =>
          parseProperties(await cli('show', created.id as string)).status === 'available'
            ? true
            : undefined,
        30_000,
        'the CLI share to be available',
      );
      await cli('access-allow', 'cli_share', 'ip', '127.0.0.1');
      await eventually(
        async () =>
          parseTable(await cli('access-list', 'cli_share'))[0]?.state === 'active'
            ? true
            : undefined,
        30_000,
        'the CLI rule to be active',
      );
      const rows = parseTable(await cli('share-export-location-list', 'cli_share'));
      const preferred = rows.find((row) => row.Preferred === 'True')?.Path as string;
      expect(preferred).toMatch(/^127\.0\.0\.1:\/share-/);
      const directory = (await locationsOf(`/v2/shares/${created.id}/export_locations`)).find(
        (l) => l.is_admin_only,
      )?.path as string;
      fs.writeFileSync(path.join(directory, 'seen-by-cli.txt'), 'listed over NFS');
      const listed = await nfs('nfs-ls', [nfsUrl(preferred, ports.alpha)]);
      expect(listed.code).toBe(0);
      expect(listed.stdout).toContain('seen-by-cli.txt');
    });

    it('serves a readable replica read-only from its own back end', async () => {
      await allow('127.0.0.1', 'rw');
      const created = await member('POST', '/v2/share-replicas', {
        share_replica: { share_id: shareId, availability_zone: 'az-2' },
      });
      expect(created.status).toBe(202);
      const replicaId = created.body.share_replica.id as string;
      await eventually(
        async () => {
          const replica = (await member('GET', `/v2/share-replicas/${replicaId}`)).body
            .share_replica;
          return replica?.status === 'available' && replica.replica_state === 'in_sync'
            ? true
            : undefined;
        },
        30_000,
        'the replica to be available and in sync',
      );
      const replicaLocation = (
        await locationsOf(`/v2/share-replicas/${replicaId}/export-locations`)
      ).find((l) => !l.is_admin_only)?.path as string;
      expect(replicaLocation).toMatch(/^127\.0\.0\.1:\/share-/);
      expect(replicaLocation).not.toBe(location);
      const read = await nfs('nfs-cat', [nfsUrl(replicaLocation, ports.bravo, 'hello.txt')]);
      expect(read.stdout).toBe('written over NFS');
      const write = await nfs('nfs-cp', [
        localFile('replica.txt', 'must not land'),
        nfsUrl(replicaLocation, ports.bravo, 'replica.txt'),
      ]);
      expect(write.code).not.toBe(0);
    });
  });
}
