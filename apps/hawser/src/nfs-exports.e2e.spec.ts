import { jest } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BackendConfig } from '#hawser/drivers';
import { startHawser, type HawserTestServer } from './test-support/hawser-test-server.js';
import {
  createClientNamespace,
  freePort,
  nfs,
  nfsUnavailableReason,
  nfsUrl,
  type ClientNamespace,
} from './test-support/nfs-client.js';
import { servedShareSteps } from './test-support/served-share.js';

/*
 * Shares on local back ends served over NFSv4 by the Ganesha each share node runs: a real
 * client (libnfs) writes and reads through the export location, and only the addresses the
 * access rules name get in.
 */

jest.setTimeout(120_000);

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
    let steps: ReturnType<typeof servedShareSteps>;
    let ports: { alpha: number; bravo: number };
    let namespace: ClientNamespace;
    let scratch: string;
    let shareId: string;
    let location: string;
    let directory: string;

    const allow = (to: string, level: 'rw' | 'ro') =>
      steps.allow(shareId, { type: 'ip', to, level });
    const deny = (id: string) => steps.deny(shareId, id);
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
      steps = servedShareSteps(hawser);
      ({ shareId, location, directory } = await steps.createShare('NFS'));
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

    // Each CLI call starts a Python interpreter: slow on a loaded machine.
    it('the manila CLI: create, access-allow ip 127.0.0.1, then nfs-ls the export location it lists', async () => {
      const served = await steps.createWithCli('NFS', 'cli_share', { type: 'ip', to: '127.0.0.1' });
      expect(served.location).toMatch(/^127\.0\.0\.1:\/share-/);
      fs.writeFileSync(path.join(served.directory, 'seen-by-cli.txt'), 'listed over NFS');
      const listed = await nfs('nfs-ls', [nfsUrl(served.location, ports.alpha)]);
      expect(listed.code).toBe(0);
      expect(listed.stdout).toContain('seen-by-cli.txt');
    }, 300_000);

    it('serves a readable replica read-only from its own back end', async () => {
      await allow('127.0.0.1', 'rw');
      const replicaLocation = await steps.createReadableReplica(shareId);
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
