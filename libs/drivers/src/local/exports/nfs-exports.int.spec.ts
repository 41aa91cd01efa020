import { jest } from '@jest/globals';
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { command, newShare } from '../../contract/share-driver.contract.js';
import type { AccessRule, ShareInstanceRef } from '../../contract/share-driver.js';
import { LocalShareDriver } from '../local.driver.js';
import {
  freePort,
  processAlive,
  waitFor,
  nfsUnavailableReason,
} from '../test-support/nfs-tools.js';

/*
 * The export layer against a real ganesha.nfsd and a real NFS client (libnfs' nfs-cat and
 * nfs-cp): the server the driver supervises comes back after it dies, and a driver started
 * again exports exactly what its metadata holds.
 */

jest.setTimeout(90_000);

const BACKEND = 'node-a@alpha';

const unavailable = nfsUnavailableReason();

const client = (tool: string, args: string[]): Promise<{ code: number; stdout: string }> =>
  new Promise((resolve) => {
    execFile(tool, args, { timeout: 30_000 }, (error, stdout) =>
      resolve({ code: error ? 1 : 0, stdout }),
    );
  });

const rule = (accessId: string, accessTo: string, accessLevel: 'rw' | 'ro'): AccessRule => ({
  accessId,
  accessType: 'ip',
  accessTo,
  accessLevel,
});

if (unavailable) {
  describe('NFS export layer', () => {
    it.skip(`skipped: ${unavailable}`, () => {
      expect(unavailable).toBeNull();
    });
  });
} else {
  describe('NFS export layer (real Ganesha, real client)', () => {
    let root: string;
    let port: number;
    let driver: LocalShareDriver | null = null;
    const ganeshaDir = () => path.join(root, BACKEND, 'ganesha');
    const pidOfServer = () =>
      Number(fs.readFileSync(path.join(ganeshaDir(), 'ganesha.pid'), 'utf8'));

    const start = async (): Promise<LocalShareDriver> => {
      driver = new LocalShareDriver(
        {
          driver: 'local',
          name: BACKEND,
          availabilityZone: 'az-1',
          pools: [{ name: 'p1' }],
          options: { root, nfsServer: { address: '127.0.0.1', port, bindAddress: '127.0.0.1' } },
        },
        () => undefined,
      );
      await driver.initialize();
      return driver;
    };
    const createShare = async (running: LocalShareDriver): Promise<ShareInstanceRef> => {
      const share = newShare(BACKEND, 'p1');
      await running.createShare({ commandId: command(), share });
      return share;
    };
    const setRules = (running: LocalShareDriver, share: ShareInstanceRef, rules: AccessRule[]) =>
      running.updateAccess({
        commandId: command(),
        share,
        accessRules: rules,
        addRules: [],
        deleteRules: [],
        castRulesToReadonly: false,
      });
    const url = (share: ShareInstanceRef, file: string) =>
      `nfs://127.0.0.1/share-${share.instanceId}/${file}?version=4&nfsport=${port}`;
    const readable = async (share: ShareInstanceRef, file: string) =>
      (await client('nfs-cat', [url(share, file)])).code === 0;
    const exportIds = () =>
      [
        ...fs
          .readFileSync(path.join(ganeshaDir(), 'exports.conf'), 'utf8')
          .matchAll(/Export_Id = (\d+);\n\s+Path = "([^"]+)"/g),
      ].map((match) => ({ id: Number(match[1]), dir: path.basename(match[2] as string) }));

    beforeEach(async () => {
      root = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-nfs-layer-'));
      port = await freePort();
    });
    afterEach(async () => {
      await driver?.close();
      driver = null;
      fs.rmSync(root, { recursive: true, force: true });
    });

    it('starts ganesha.nfsd again when it dies, serving the same rules', async () => {
      const running = await start();
      const share = await createShare(running);
      fs.writeFileSync(path.join(running.shareDirectory(share.host, share.instanceId), 'f'), 'x');
      await setRules(running, share, [rule('r1', '127.0.0.1', 'ro')]);
      expect(await readable(share, 'f')).toBe(true);

      const first = pidOfServer();
      process.kill(first, 'SIGKILL');
      await waitFor(async () => !processAlive(first), 'the killed server to be gone');

      await waitFor(() => readable(share, 'f'), 'the restarted server to serve the share');
      expect(pidOfServer()).not.toBe(first);
    });

    it('puts a rule the server refuses to error, applying the others and keeping the previous in force', async () => {
      const running = await start();
      const share = await createShare(running);
      fs.writeFileSync(path.join(running.shareDirectory(share.host, share.instanceId), 'f'), 'x');
      const kept = rule('r1', '127.0.0.1', 'ro');
      await setRules(running, share, [kept]);
      const added = rule('r3', '10.9.9.0/24', 'rw');
      // Node takes an IPv6 zone id as an address; Ganesha's parser does not.
      const result = await setRules(running, share, [
        kept,
        rule('r2', 'fe80::1%eth0', 'rw'),
        added,
      ]);
      expect(result.ruleUpdates).toEqual({
        r1: { state: 'active' },
        r2: { state: 'error' },
        r3: { state: 'active' },
      });
      expect(await running.appliedRules(share)).toEqual([kept, added]);
      expect(fs.readFileSync(path.join(ganeshaDir(), 'exports.conf'), 'utf8')).toContain(
        '10.9.9.0/24',
      );
      expect(await readable(share, 'f')).toBe(true);
    });

    it('started again, exports exactly what the metadata holds, with the same ids, replacing a leftover server', async () => {
      const running = await start();
      const kept = await createShare(running);
      const revoked = await createShare(running);
      const deleted = await createShare(running);
      for (const share of [kept, revoked, deleted]) {
        const dir = running.shareDirectory(share.host, share.instanceId);
        fs.writeFileSync(path.join(dir, 'f'), 'x');
        await setRules(running, share, [rule(`r-${share.instanceId}`, '127.0.0.1', 'rw')]);
      }
      const idsBefore = exportIds();
      await setRules(running, revoked, []);
      await running.deleteShare({ commandId: command(), share: deleted });
      await running.close();
      driver = null;
      // A server of the back end's that outlived its share node, holding the port.
      const configFile = path.join(ganeshaDir(), 'ganesha.conf');
      const leftover = spawn(
        'ganesha.nfsd',
        [
          '-F',
          '-f',
          configFile,
          '-L',
          path.join(ganeshaDir(), 'leftover.log'),
          '-p',
          path.join(ganeshaDir(), 'ganesha.pid'),
        ],
        { cwd: ganeshaDir(), stdio: 'ignore' },
      );
      await waitFor(async () => readable(kept, 'f'), 'the leftover server to serve');

      await start();

      await waitFor(async () => leftover.signalCode !== null, 'the leftover server to be stopped');
      expect(leftover.signalCode).toBe('SIGKILL');
      expect(await readable(kept, 'f')).toBe(true);
      expect(await readable(revoked, 'f')).toBe(false);
      expect(await readable(deleted, 'f')).toBe(false);
      const idsAfter = exportIds();
      expect(idsAfter.map((entry) => entry.dir).sort()).toEqual(
        [kept.instanceId, revoked.instanceId].sort(),
      );
      expect(new Set(idsAfter.map((entry) => entry.id)).size).toBe(idsAfter.length);
      for (const entry of idsAfter) {
        expect(idsBefore).toContainEqual(entry);
      }
    });
  });
}
