import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LocalBackendOptions } from '../config/backend-config.js';
import {
  command,
  newShare,
  newSnapshot,
  pollUntilSettled,
} from '../contract/share-driver.contract.js';
import type { AccessRule, ShareInstanceRef } from '../contract/share-driver.js';
import { LocalLayout } from './local-layout.js';
import { LocalShareDriver } from './local.driver.js';
import { probeReflink } from './tree-operations.js';

const A = 'node-a@alpha';
const B = 'node-b@beta';
const MIB = 1024 * 1024;

/** Bytes in the files directly under `dir` (none while it does not exist yet). */
const bytesIn = (dir: string): number =>
  fs.existsSync(dir)
    ? fs.readdirSync(dir).reduce((sum, name) => sum + fs.statSync(path.join(dir, name)).size, 0)
    : 0;

describe('local driver', () => {
  let root: string;
  const started: LocalShareDriver[] = [];

  async function startDriver(
    name: string,
    options: Partial<LocalBackendOptions> = {},
  ): Promise<LocalShareDriver> {
    const driver = new LocalShareDriver({
      driver: 'local',
      name,
      availabilityZone: name === A ? 'az-1' : 'az-2',
      replicationDomain: 'domain',
      pools: [{ name: 'p1' }, { name: 'p2' }],
      options: { root, ...options },
    });
    await driver.initialize();
    started.push(driver);
    return driver;
  }

  function writeTree(dir: string, files: Record<string, string | Buffer>): void {
    for (const [name, content] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), content);
    }
  }

  function treeDigest(dir: string): Record<string, string> {
    const digest: Record<string, string> = {};
    for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const full = path.join(entry.parentPath, entry.name);
      digest[path.relative(dir, full)] = createHash('sha256')
        .update(fs.readFileSync(full))
        .digest('hex');
    }
    return digest;
  }

  async function shareWithData(
    driver: LocalShareDriver,
    pool: string,
    files: Record<string, string | Buffer>,
    overrides: Partial<ShareInstanceRef> = {},
  ): Promise<ShareInstanceRef> {
    const share = newShare(driver.backend, pool, overrides);
    await driver.createShare({ commandId: command(), share });
    writeTree(driver.shareDirectory(share.host, share.instanceId), files);
    return share;
  }

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-'));
  });

  afterEach(async () => {
    for (const driver of started.splice(0)) await driver.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  describe('snapshots', () => {
    it('when a snapshot is taken, then it keeps the data of that moment, by reflink where the file system can and by copy otherwise', async () => {
      const driver = await startDriver(A);
      const share = await shareWithData(driver, 'p1', {
        'a.txt': 'before',
        'dir/b.bin': Buffer.alloc(4096, 7),
      });
      const snapshot = newSnapshot(share);

      const result = await driver.createSnapshot({ commandId: command(), snapshot, share });
      fs.writeFileSync(
        path.join(driver.shareDirectory(share.host, share.instanceId), 'a.txt'),
        'after',
      );

      const expectedMethod = await probeReflink(new LocalLayout(root).poolDir(share.host));
      expect(driver.cloneMethod('p1')).toBe(expectedMethod);
      expect(result.providerLocation?.startsWith(`${expectedMethod}:`)).toBe(true);
      const snapshotDir = result.providerLocation!.slice(expectedMethod.length + 1);
      expect(fs.readFileSync(path.join(snapshotDir, 'a.txt'), 'utf8')).toBe('before');
      expect(fs.readFileSync(path.join(snapshotDir, 'dir/b.bin'))).toEqual(Buffer.alloc(4096, 7));
    });
  });

  describe('access files', () => {
    it('when rules change, then the exports file lists exactly the enforced rules of NFS shares and the SMB file the CIFS users', async () => {
      const driver = await startDriver(A);
      const nfs = await shareWithData(driver, 'p1', {});
      const cifs = await shareWithData(driver, 'p2', {}, { protocol: 'CIFS' });
      const rw: AccessRule = {
        accessId: 'r1',
        accessType: 'ip',
        accessTo: '10.0.0.0/24',
        accessLevel: 'rw',
      };
      const ro: AccessRule = {
        accessId: 'r2',
        accessType: 'ip',
        accessTo: '10.0.1.7',
        accessLevel: 'ro',
      };
      const alice: AccessRule = {
        accessId: 'u1',
        accessType: 'user',
        accessTo: 'alice',
        accessLevel: 'rw',
      };
      const bob: AccessRule = {
        accessId: 'u2',
        accessType: 'user',
        accessTo: 'bob',
        accessLevel: 'ro',
      };
      const base = { castRulesToReadonly: false, deleteRules: [] };

      await driver.updateAccess({
        ...base,
        commandId: command(),
        share: nfs,
        accessRules: [rw, ro],
        addRules: [rw, ro],
      });
      await driver.updateAccess({
        ...base,
        commandId: command(),
        share: cifs,
        accessRules: [alice, bob],
        addRules: [alice, bob],
      });
      const nfsDir = driver.shareDirectory(nfs.host, nfs.instanceId);
      const exportsAfterAdd = fs.readFileSync(driver.exportsFile(), 'utf8');
      await driver.updateAccess({
        commandId: command(),
        share: nfs,
        accessRules: [ro],
        addRules: [],
        deleteRules: [rw],
        castRulesToReadonly: false,
      });
      const exportsAfterDeny = fs.readFileSync(driver.exportsFile(), 'utf8');

      expect(exportsAfterAdd.split('\n').filter((line) => !line.startsWith('#') && line)).toEqual([
        `${nfsDir} 10.0.0.0/24(rw,sync,no_subtree_check) 10.0.1.7(ro,sync,no_subtree_check)`,
      ]);
      expect(exportsAfterDeny).toContain(`${nfsDir} 10.0.1.7(ro,sync,no_subtree_check)\n`);
      expect(exportsAfterDeny).not.toContain('10.0.0.0/24');
      const smb = fs.readFileSync(
        path.join(path.dirname(driver.exportsFile()), 'smb-access.conf'),
        'utf8',
      );
      expect(smb).toContain(`[share-${cifs.instanceId}]`);
      expect(smb).toContain('  valid users = alice bob\n');
      expect(smb).toContain('  read list = bob\n');
      expect(
        fs.readdirSync(path.dirname(driver.exportsFile())).filter((n) => n.endsWith('.tmp')),
      ).toEqual([]);
    });
    it('when many shares change rules at once, then the exports file ends up with every one of them', async () => {
      const driver = await startDriver(A);
      const shares = await Promise.all(
        Array.from({ length: 12 }, (_, i) => shareWithData(driver, i % 2 ? 'p1' : 'p2', {})),
      );

      await Promise.all(
        shares.map((share, i) => {
          const rule: AccessRule = {
            accessId: `r${i}`,
            accessType: 'ip',
            accessTo: `10.0.${i}.0/24`,
            accessLevel: 'rw',
          };
          return driver.updateAccess({
            commandId: command(),
            share,
            accessRules: [rule],
            addRules: [rule],
            deleteRules: [],
            castRulesToReadonly: false,
          });
        }),
      );

      const lines = fs
        .readFileSync(driver.exportsFile(), 'utf8')
        .split('\n')
        .filter((line) => line && !line.startsWith('#'));
      expect(lines).toHaveLength(12);
      for (const [i, share] of shares.entries()) {
        expect(lines).toContain(
          `${driver.shareDirectory(share.host, share.instanceId)} 10.0.${i}.0/24(rw,sync,no_subtree_check)`,
        );
      }
    });
  });

  describe('replicas on disk', () => {
    function writable(target: string): boolean {
      return (fs.statSync(target).mode & 0o222) !== 0;
    }

    it('given a readable replica, then it is read-only on disk, follows the active one, and promotion flips the modes', async () => {
      const alpha = await startDriver(A);
      const beta = await startDriver(B);
      const active = await shareWithData(
        alpha,
        'p1',
        { 'keep.txt': 'v1', 'old.txt': 'x', 'sub/n.txt': 'n' },
        { replicaState: 'active' },
      );
      const replica = newShare(B, 'p1', { shareId: active.shareId, replicaState: 'out_of_sync' });
      await beta.createReplica({
        commandId: command(),
        replicaList: [active, replica],
        newReplica: replica,
        accessRules: [],
        replicaSnapshots: [],
      });
      const activeDir = alpha.shareDirectory(active.host, active.instanceId);
      const replicaDir = beta.shareDirectory(replica.host, replica.instanceId);

      expect(treeDigest(replicaDir)).toEqual(treeDigest(activeDir));
      expect(writable(replicaDir)).toBe(false);
      expect(writable(path.join(replicaDir, 'keep.txt'))).toBe(false);
      expect(writable(path.join(replicaDir, 'sub'))).toBe(false);
      if (process.getuid?.() !== 0) {
        expect(() => fs.writeFileSync(path.join(replicaDir, 'keep.txt'), 'tenant')).toThrow(
          /EACCES/,
        );
      }

      writeTree(activeDir, { 'keep.txt': 'v2', 'sub/new.txt': 'added' });
      fs.rmSync(path.join(activeDir, 'old.txt'));
      const inSync = { ...replica, replicaState: 'in_sync' as const };
      const state = await beta.updateReplicaState({
        commandId: command(),
        replicaList: [active, inSync],
        replica: inSync,
        accessRules: [],
        replicaSnapshots: [],
      });
      expect(state).toEqual({ replicaState: 'in_sync' });
      expect(treeDigest(replicaDir)).toEqual(treeDigest(activeDir));
      expect(writable(path.join(replicaDir, 'sub/new.txt'))).toBe(false);

      await beta.promoteReplica({
        commandId: command(),
        replicaList: [active, inSync],
        replica: inSync,
        accessRules: [],
      });
      expect(writable(replicaDir)).toBe(true);
      expect(writable(path.join(replicaDir, 'keep.txt'))).toBe(true);
      expect(writable(activeDir)).toBe(false);
      expect(writable(path.join(activeDir, 'keep.txt'))).toBe(false);
    });
  });

  describe('background copies across pools', () => {
    it('when a share is created from a snapshot in another pool, then progress observed rises to 100 and the data arrives whole', async () => {
      const driver = await startDriver(A, { copyBytesPerSecond: 96 * MIB, copyChunkBytes: MIB });
      const payload = Buffer.alloc(24 * MIB);
      for (let i = 0; i < payload.length; i += 4096) payload.writeUInt32LE(i, i);
      const parent = await shareWithData(driver, 'p1', {
        'big.bin': payload,
        'small.txt': 'hello',
      });
      const snapshot = newSnapshot(parent);
      await driver.createSnapshot({ commandId: command(), snapshot, share: parent });
      const share = newShare(A, 'p2');

      const created = await driver.createShareFromSnapshot({
        commandId: command(),
        share,
        snapshot,
        parentShare: parent,
      });
      const snapshotWhileCopying = driver
        .createSnapshot({ commandId: command(), snapshot: newSnapshot(share), share })
        .catch((error: unknown) => error);
      const seen = await pollUntilSettled(driver, share);

      expect(await snapshotWhileCopying).toMatchObject({ code: 'invalid_request' });
      const progress = seen.map((status) => status.progress);
      const between = new Set(progress.filter((p) => p > 0 && p < 100));
      expect(created).toEqual({ status: 'creating_from_snapshot', progress: 0 });
      expect(progress).toEqual([...progress].sort((a, b) => a - b));
      expect(between.size).toBeGreaterThanOrEqual(3);
      expect(seen.at(-1)).toMatchObject({ status: 'available', progress: 100 });
      expect(treeDigest(driver.shareDirectory(share.host, share.instanceId))).toEqual(
        treeDigest(driver.shareDirectory(parent.host, parent.instanceId)),
      );
    });
  });

  describe('crash recovery through ensureShares', () => {
    it('given a copy stopped by a crash, when the node restarts, then ensureShares resumes it and it completes whole', async () => {
      const before = await startDriver(A, {
        copyBytesPerSecond: 16 * MIB,
        copyChunkBytes: 256 * 1024,
      });
      const parent = await shareWithData(before, 'p1', {
        'one.bin': Buffer.alloc(4 * MIB, 1),
        'two.bin': Buffer.alloc(4 * MIB, 2),
      });
      const snapshot = newSnapshot(parent);
      await before.createSnapshot({ commandId: command(), snapshot, share: parent });
      const share = newShare(A, 'p2');
      await before.createShareFromSnapshot({
        commandId: command(),
        share,
        snapshot,
        parentShare: parent,
      });
      const target = before.shareDirectory(share.host, share.instanceId);
      // The crash comes once the copy has written something, however slowly it started.
      const deadline = Date.now() + 10_000;
      while (bytesIn(target) === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await before.close();
      const copiedAtCrash = bytesIn(target);

      const after = await startDriver(A);
      const ensured = await after.ensureShares({ commandId: command(), shares: [parent, share] });
      await after.waitForCopy(share.instanceId);

      expect(copiedAtCrash).toBeGreaterThan(0);
      expect(copiedAtCrash).toBeLessThan(8 * MIB);
      expect(ensured.recovered).toEqual([
        expect.objectContaining({
          operation: 'createShareFromSnapshot',
          resourceId: share.instanceId,
          resolution: 'resumed',
        }),
      ]);
      expect(ensured.shares).toEqual([
        expect.objectContaining({
          instanceId: parent.instanceId,
          outcome: 'present',
          status: 'available',
        }),
        expect.objectContaining({
          instanceId: share.instanceId,
          outcome: 'resumed',
          // The resumed copy may already have finished.
          status: expect.stringMatching(/^(creating_from_snapshot|available)$/),
        }),
      ]);
      expect(await after.getShareStatus({ commandId: command(), share })).toMatchObject({
        status: 'available',
        progress: 100,
      });
      expect(treeDigest(target)).toEqual(
        treeDigest(after.shareDirectory(parent.host, parent.instanceId)),
      );
    });

    it('given markers of a half-taken snapshot, a half-deleted share and an unfinished create, then ensureShares undoes, finishes and completes them', async () => {
      const before = await startDriver(A);
      const layout = new LocalLayout(root);
      const share = await shareWithData(before, 'p1', { 'a.txt': 'a', 'b/c.txt': 'c' });
      const doomed = await shareWithData(before, 'p1', { 'x.txt': 'x', 'y/z.txt': 'z' });
      const halfCreated = newShare(A, 'p2');
      const snapshot = newSnapshot(share);
      const halfSnapshot = layout.snapshotDir(share.host, snapshot.snapshotInstanceId);
      writeTree(halfSnapshot, { 'a.txt': 'a' });
      fs.rmSync(path.join(before.shareDirectory(doomed.host, doomed.instanceId), 'x.txt'));
      const marker = (operation: string, resourceId: string, request: unknown): void => {
        writeTree(layout.markersDir(A), {
          [`${operation}-${resourceId}.json`]: JSON.stringify({
            operation,
            commandId: `crashed-${operation}`,
            resourceId,
            request,
            startedAt: new Date().toISOString(),
          }),
        });
      };
      marker('createSnapshot', snapshot.snapshotInstanceId, { snapshot, share });
      marker('deleteShare', doomed.instanceId, { share: doomed });
      marker('createShare', halfCreated.instanceId, { share: halfCreated });
      await before.close();

      const after = await startDriver(A);
      const ensured = await after.ensureShares({
        commandId: command(),
        shares: [share, doomed, halfCreated],
      });

      expect(ensured.recovered).toEqual(
        expect.arrayContaining([
          {
            operation: 'createSnapshot',
            commandId: 'crashed-createSnapshot',
            resourceId: snapshot.snapshotInstanceId,
            resolution: 'rolled_back',
          },
          {
            operation: 'deleteShare',
            commandId: 'crashed-deleteShare',
            resourceId: doomed.instanceId,
            resolution: 'completed',
          },
          {
            operation: 'createShare',
            commandId: 'crashed-createShare',
            resourceId: halfCreated.instanceId,
            resolution: 'completed',
          },
        ]),
      );
      expect(ensured.shares.map((s) => [s.instanceId, s.outcome, s.status])).toEqual([
        [share.instanceId, 'present', 'available'],
        [doomed.instanceId, 'missing', 'missing'],
        [halfCreated.instanceId, 'completed', 'available'],
      ]);
      expect(fs.existsSync(halfSnapshot)).toBe(false);
      expect(fs.existsSync(after.shareDirectory(doomed.host, doomed.instanceId))).toBe(false);
      expect(fs.readdirSync(layout.markersDir(A))).toEqual([]);
      await expect(after.deleteShare({ commandId: command(), share })).resolves.toEqual({
        existed: true,
      });
    });
    it('given a promotion cut short, when the node restarts, then ensureShares finishes it', async () => {
      const alpha = await startDriver(A);
      const before = await startDriver(B);
      const active = await shareWithData(
        alpha,
        'p1',
        { 'f.txt': 'data' },
        { replicaState: 'active' },
      );
      const replica = newShare(B, 'p1', { shareId: active.shareId, replicaState: 'in_sync' });
      await before.createReplica({
        commandId: command(),
        replicaList: [active, replica],
        newReplica: replica,
        accessRules: [],
        replicaSnapshots: [],
      });
      const request = {
        commandId: 'promote-1',
        replicaList: [active, replica],
        replica,
        accessRules: [],
      };
      writeTree(new LocalLayout(root).markersDir(B), {
        [`promoteReplica-${replica.instanceId}.json`]: JSON.stringify({
          operation: 'promoteReplica',
          commandId: 'promote-1',
          resourceId: replica.instanceId,
          request,
          startedAt: new Date().toISOString(),
        }),
      });
      await before.close();

      const after = await startDriver(B);
      const ensured = await after.ensureShares({ commandId: command(), shares: [replica] });

      expect(ensured.recovered).toEqual([
        {
          operation: 'promoteReplica',
          commandId: 'promote-1',
          resourceId: replica.instanceId,
          resolution: 'completed',
        },
      ]);
      expect(ensured.shares[0]).toMatchObject({ outcome: 'completed', status: 'available' });
      const replicaDir = after.shareDirectory(replica.host, replica.instanceId);
      const activeDir = alpha.shareDirectory(active.host, active.instanceId);
      expect(fs.statSync(path.join(replicaDir, 'f.txt')).mode & 0o200).toBe(0o200);
      expect(fs.statSync(path.join(activeDir, 'f.txt')).mode & 0o222).toBe(0);
    });
  });

  describe('size', () => {
    it('given a file system without project quotas, then sizes are reported, and over-use shows in the share status', async () => {
      const driver = await startDriver(A);
      const share = await shareWithData(driver, 'p1', {});
      const file = path.join(driver.shareDirectory(share.host, share.instanceId), 'sparse');
      fs.writeFileSync(file, '');
      fs.truncateSync(file, 1.25 * 1024 ** 3);

      const status = await driver.getShareStatus({ commandId: command(), share });

      const enforcement = await driver.sizeEnforcement('p1');
      expect(enforcement).toMatchObject({ strategy: 'reported', mode: 'reported' });
      expect(enforcement.reason).toContain(enforcement.fileSystem);
      const { pools } = await driver.getPoolStats({ commandId: command() });
      expect(pools.every((pool) => pool.capabilities.size_enforcement === 'reported')).toBe(true);
      expect(status.usage).toEqual({
        usedBytes: 1.25 * 1024 ** 3,
        limitBytes: 1024 ** 3,
        overLimit: true,
        enforcement: 'reported',
        strategy: 'reported',
      });
    });
  });
});
