import { jest } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BackendConfig } from '#hawser/drivers';
import {
  cifsUnavailableReason,
  createSambaUser,
  smbclient,
  smbService,
  type SambaUser,
  type SmbCredentials,
} from './test-support/cifs-client.js';
import {
  eventually,
  startHawser,
  type HawserTestServer,
} from './test-support/hawser-test-server.js';
import {
  createClientNamespace,
  freePort,
  type ClientNamespace,
} from './test-support/nfs-client.js';
import { servedShareSteps } from './test-support/served-share.js';

/*
 * CIFS shares on local back ends served by the smbd each share node runs: a real client
 * (smbclient) writes and reads through the export location as a Samba user the test creates,
 * and only the users and addresses the access rules name get in.
 */

jest.setTimeout(120_000);

const unavailable = cifsUnavailableReason();
const NAMES = ['alpha', 'bravo'] as const;

const servingBackends =
  (ports: Record<(typeof NAMES)[number], number>) =>
  (dataDir: string): BackendConfig[] =>
    NAMES.map((name, index) => ({
      name: `node-az${index + 1}@${name}`,
      driver: 'local',
      availabilityZone: `az-${index + 1}`,
      replicationDomain: 'blue',
      pools: [{ name: 'pool1' }],
      options: {
        root: path.join(dataDir, 'pools'),
        cifsServer: { address: '127.0.0.1', port: ports[name] },
      },
    }));

if (unavailable) {
  describe('CIFS exports through Samba', () => {
    it.skip(`skipped: ${unavailable}`, () => {
      expect(cifsUnavailableReason()).toBeNull();
    });
  });
} else {
  describe('CIFS exports through Samba (local back ends, real client)', () => {
    let hawser: HawserTestServer;
    let steps: ReturnType<typeof servedShareSteps>;
    let ports: Record<(typeof NAMES)[number], number>;
    let dataDir: string;
    let user: SambaUser;
    let namespace: ClientNamespace;
    let scratch: string;
    let shareId: string;
    let location: string;
    let directory: string;
    let reads = 0;

    const sambaConfig = (index: number) =>
      path.join(dataDir, 'pools', `node-az${index + 1}@${NAMES[index]}`, 'samba', 'smb.conf');
    const allow = (type: string, to: string, level: 'rw' | 'ro', state = 'active') =>
      steps.allow(shareId, { type, to, level }, state);
    const deny = (id: string) => steps.deny(shareId, id);
    const localFile = (name: string, content: string) => {
      const file = path.join(scratch, name);
      fs.writeFileSync(file, content);
      return file;
    };
    const asUser = (): SmbCredentials => user;
    const copyIn = (
      name: string,
      content: string,
      who: SmbCredentials = asUser(),
      netns?: string,
      host?: string,
    ) =>
      smbclient(
        smbService(location, host),
        ports.alpha,
        who,
        `put ${localFile(name, content)} ${name}`,
        netns,
      );
    /** Gets a file into the scratch directory (smbclient cannot write to a pipe) and reads it. */
    const readBack = async (
      name: string,
      who: SmbCredentials = asUser(),
      netns?: string,
      host?: string,
      service = smbService(location, host),
      port = ports.alpha,
    ) => {
      reads += 1;
      const target = path.join(scratch, `read-${reads}`);
      const got = await smbclient(service, port, who, `get ${name} ${target}`, netns);
      return { ...got, content: got.code === 0 ? fs.readFileSync(target, 'utf8') : null };
    };

    beforeAll(async () => {
      scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-cifs-client-'));
      ports = { alpha: await freePort(), bravo: await freePort() };
      const backends = servingBackends(ports);
      hawser = await startHawser({
        backends: (dir) => {
          dataDir = dir;
          return backends(dir);
        },
        env: { HAWSER_REPLICA_STATE_UPDATE_INTERVAL_S: '1' },
      });
      steps = servedShareSteps(hawser);
      user = await createSambaUser([sambaConfig(0), sambaConfig(1)], `hwc${process.pid % 100000}`);
      ({ shareId, location, directory } = await steps.createShare('CIFS'));
      namespace = await createClientNamespace(
        `smb${process.pid % 10000}`,
        '169.254.78.1',
        '169.254.78.2',
        30,
      );
    });
    afterAll(async () => {
      await namespace?.remove();
      await hawser?.close();
      await user?.remove();
      fs.rmSync(scratch, { recursive: true, force: true });
    });

    it('gives the share an export location \\\\address\\share-<id>, preferred, and its directory admin-only', () => {
      expect(location).toMatch(/^\\\\127\.0\.0\.1\\share-[0-9a-f-]+$/);
      expect(path.isAbsolute(directory)).toBe(true);
    });

    it('refuses every client while the share has no rule', async () => {
      const refused = await copyIn('before.txt', 'no rule yet');
      expect(refused.code).not.toBe(0);
      expect(fs.existsSync(path.join(directory, 'before.txt'))).toBe(false);
    });

    it('lets the user write once allowed rw: the file reads back over CIFS and is in the directory', async () => {
      const ruleId = await allow('user', user.user, 'rw');
      expect(await copyIn('hello.txt', 'written over CIFS')).toMatchObject({ code: 0 });
      expect((await readBack('hello.txt')).content).toBe('written over CIFS');
      expect(fs.readFileSync(path.join(directory, 'hello.txt'), 'utf8')).toBe('written over CIFS');
      expect((await readBack('hello.txt', null)).code).not.toBe(0);
      await deny(ruleId);
    });

    it('serves an ro user rule read-only (read list): reads work, the write is refused', async () => {
      const ruleId = await allow('user', user.user, 'ro');
      expect((await readBack('hello.txt')).content).toBe('written over CIFS');
      expect((await copyIn('ro.txt', 'must not land')).code).not.toBe(0);
      expect(fs.existsSync(path.join(directory, 'ro.txt'))).toBe(false);
      await deny(ruleId);
    });

    it('refuses the next client operation after deny_access', async () => {
      const ruleId = await allow('user', user.user, 'rw');
      expect((await readBack('hello.txt')).code).toBe(0);
      await deny(ruleId);
      expect((await readBack('hello.txt')).code).not.toBe(0);
    });

    it('puts a cert rule, which CIFS cannot honour, to error with a user message, and the share to access error', async () => {
      const ruleId = await allow('cert', 'client.example.com', 'rw', 'error');
      await eventually(
        async () =>
          (await steps.member('GET', `/v2/shares/${shareId}`)).body.share?.access_rules_status ===
          'error'
            ? true
            : undefined,
        15_000,
        'the share to show the access error',
      );
      const messages = (await steps.member('GET', `/v2/messages?resource_id=${shareId}`)).body
        .messages as { action_id: string; detail_id: string; user_message: string }[];
      expect(messages).toContainEqual(
        expect.objectContaining({
          action_id: '010',
          detail_id: '904',
          user_message: expect.stringContaining('cannot enforce some of the access rules'),
        }),
      );
      await deny(ruleId);
    });

    it('lets in only the allowed address: a guest at 169.254.78.2 is refused until its ip rule, 127.0.0.1 stays out', async () => {
      const host = namespace.hostAddress;
      expect((await readBack('hello.txt', null, namespace.name, host)).code).not.toBe(0);
      const ruleId = await allow('ip', namespace.clientAddress, 'rw');
      const copied = await copyIn(
        'from-namespace.txt',
        'from 169.254.78.2',
        null,
        namespace.name,
        host,
      );
      expect(copied).toMatchObject({ code: 0 });
      expect(fs.readFileSync(path.join(directory, 'from-namespace.txt'), 'utf8')).toBe(
        'from 169.254.78.2',
      );
      expect((await readBack('hello.txt', null)).code).not.toBe(0);
      await deny(ruleId);
      expect((await readBack('hello.txt', null, namespace.name, host)).code).not.toBe(0);
    });

    // Each CLI call starts a Python interpreter: slow on a loaded machine.
    it('the manila CLI: create CIFS, access-allow user, then smbclient at the export location it lists', async () => {
      const served = await steps.createWithCli('CIFS', 'cli_cifs', { type: 'user', to: user.user });
      expect(served.location).toMatch(/^\\\\127\.0\.0\.1\\share-/);
      const written = await smbclient(
        smbService(served.location),
        ports.alpha,
        user,
        `put ${localFile('cli.txt', 'through the CLI location')} cli.txt; ls`,
      );
      expect(written.code).toBe(0);
      expect(written.stdout).toContain('cli.txt');
      expect(fs.readFileSync(path.join(served.directory, 'cli.txt'), 'utf8')).toBe(
        'through the CLI location',
      );
    }, 300_000);

    it('serves a readable replica read-only from its own back end', async () => {
      await allow('user', user.user, 'rw');
      const replicaLocation = await steps.createReadableReplica(shareId);
      expect(replicaLocation).toMatch(/^\\\\127\.0\.0\.1\\share-/);
      expect(replicaLocation).not.toBe(location);
      const service = smbService(replicaLocation);
      const read = await readBack('hello.txt', user, undefined, undefined, service, ports.bravo);
      expect(read.content).toBe('written over CIFS');
      const write = await smbclient(
        service,
        ports.bravo,
        user,
        `put ${localFile('replica.txt', 'must not land')} replica.txt`,
      );
      expect(write.code).not.toBe(0);
    });
  });
}
