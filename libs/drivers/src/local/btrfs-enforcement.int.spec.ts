import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  command,
  describeShareDriverContract,
  newShare,
  newSnapshot,
  pollUntilSettled,
} from '../contract/share-driver.contract.js';
import type { ShareInstanceRef } from '../contract/share-driver.js';
import { LocalLayout } from './local-layout.js';
import { LocalStore } from './local-store.js';
import { LocalShareDriver } from './local.driver.js';
import { mountBtrfsLoop, removeBtrfsTree } from './test-support/btrfs-loop.js';
import { localContractFixture } from './test-support/local-contract-fixture.js';

const GIB = 1024 ** 3;
const MIB = 1024 ** 2;
const A = 'node-a@alpha';
const B = 'node-b@beta';

// Sparse: the image costs only what the tests write (about 1.2 GiB at most at a time).
const setup = mountBtrfsLoop(8 * GIB);

if ('skipped' in setup) {
  describe('local driver on btrfs with quotas', () => {
    it.skip(`runs the contract and enforces share sizes by qgroups (skipped: ${setup.skipped})`, () => {});
  });
} else {
  const { loop } = setup;
  let roots = 0;
  const newRoot = (): string => {
    roots += 1;
    const root = path.join(loop.mountPoint, `root-${roots}`);
    fs.mkdirSync(root);
    return root;
  };

  afterAll(() => loop.release());

  describeShareDriverContract('local on btrfs with quotas', () => {
    const root = newRoot();
    return localContractFixture({
      root,
      // Preallocated extents count against the qgroup as written data does.
      fill: async (file, bytes) => {
        execFileSync('fallocate', ['-l', String(bytes), file]);
      },
      removeRoot: async () => removeBtrfsTree(root),
    });
  });

  describe('local driver on btrfs with quotas: share sizes are enforced', () => {
    let root: string;
    let alpha: LocalShareDriver;
    let beta: LocalShareDriver;

    const start = async (name: string, pools: string[]): Promise<LocalShareDriver> => {
      const driver = new LocalShareDriver({
        driver: 'local',
        name,
        availabilityZone: 'az-1',
        replicationDomain: 'btrfs-domain',
        pools: pools.map((pool) => ({ name: pool })),
        options: { root },
      });
      await driver.initialize();
      return driver;
    };

    beforeEach(async () => {
      root = newRoot();
      alpha = await start(A, ['p1', 'p2']);
      beta = await start(B, ['p1']);
    });

    afterEach(async () => {
      await alpha.close();
      await beta.close();
      removeBtrfsTree(root);
    });

    const dirOf = (share: ShareInstanceRef): string =>
      alpha.shareDirectory(share.host, share.instanceId);

    it('given a btrfs pool with quotas, then it reports qgroup enforcement and snapshots by subvolume', async () => {
      expect(await alpha.sizeEnforcement('p1')).toMatchObject({
        strategy: 'btrfs-qgroup',
        mode: 'enforced',
        fileSystem: 'btrfs',
        mountPoint: loop.mountPoint,
      });
      expect(alpha.cloneMethod('p1')).toBe('subvolume');
      const { pools } = await alpha.getPoolStats({ commandId: command() });
      expect(pools.map((pool) => pool.capabilities.size_enforcement)).toEqual([
        'btrfs-qgroup',
        'btrfs-qgroup',
      ]);
    });

    it('given a 1 GiB share, then writing past 1 GiB fails with EDQUOT; extended to 2 GiB it takes more, and shrinking below its data is refused', async () => {
      const share = newShare(A, 'p1', { sizeGiB: 1 });
      await alpha.createShare({ commandId: command(), share });
      expect(isSubvolume(dirOf(share))).toBe(true);
      expect(qgroupOf(dirOf(share)).maxReferenced).toBe(GIB);

      const file = path.join(dirOf(share), 'data.bin');
      const first = writeUntilRefused(file, 1.25 * GIB);
      expect(first.error).toBe('EDQUOT');
      expect(first.written).toBeGreaterThan(0.9 * GIB);
      expect(first.written).toBeLessThanOrEqual(GIB);
      const full = await alpha.getShareStatus({ commandId: command(), share });
      expect(full.usage).toMatchObject({
        limitBytes: GIB,
        overLimit: false,
        enforcement: 'enforced',
        strategy: 'btrfs-qgroup',
      });
      expect(full.usage?.usedBytes).toBeGreaterThan(0.9 * GIB);

      await alpha.extendShare({ commandId: command(), share, newSizeGiB: 2 });
      expect(qgroupOf(dirOf(share)).maxReferenced).toBe(2 * GIB);
      const more = writeUntilRefused(path.join(dirOf(share), 'more.bin'), 128 * MIB);
      expect(more).toEqual({ written: 128 * MIB, error: null });

      await expect(
        alpha.shrinkShare({ commandId: command(), share: { ...share, sizeGiB: 2 }, newSizeGiB: 1 }),
      ).rejects.toMatchObject({ code: 'shrinking_possible_data_loss' });
      expect(qgroupOf(dirOf(share)).maxReferenced).toBe(2 * GIB);

      fs.rmSync(file);
      await alpha.shrinkShare({
        commandId: command(),
        share: { ...share, sizeGiB: 2 },
        newSizeGiB: 1,
      });
      expect(qgroupOf(dirOf(share)).maxReferenced).toBe(GIB);

      const id = subvolumeId(dirOf(share));
      expect(await alpha.deleteShare({ commandId: command(), share })).toEqual({ existed: true });
      expect(fs.existsSync(dirOf(share))).toBe(false);
      expect(subvolumePaths()).not.toContain(share.instanceId);
      expect(qgroupIds()).not.toContain(`0/${id}`);
    }, 60_000);

    it('given a snapshot, then it is a read-only subvolume, and shares made from it in the same pool, another pool and another back end are limited subvolumes with its data', async () => {
      const parent = newShare(A, 'p1', { sizeGiB: 1 });
      await alpha.createShare({ commandId: command(), share: parent });
      fs.writeFileSync(path.join(dirOf(parent), 'f.bin'), Buffer.alloc(8 * MIB, 7));
      const snapshot = newSnapshot(parent);

      const taken = await alpha.createSnapshot({ commandId: command(), snapshot, share: parent });

      const snapshotDir = taken.providerLocation!.replace(/^subvolume:/, '');
      expect(taken.providerLocation).toMatch(/^subvolume:/);
      expect(isSubvolume(snapshotDir)).toBe(true);
      expect(btrfs(['property', 'get', snapshotDir, 'ro']).trim()).toBe('ro=true');

      const samePool = newShare(A, 'p1', { sizeGiB: 2 });
      const otherPool = newShare(A, 'p2', { sizeGiB: 1 });
      const otherBackend = newShare(B, 'p1', { sizeGiB: 1 });
      const same = await alpha.createShareFromSnapshot({
        commandId: command(),
        share: samePool,
        snapshot,
        parentShare: parent,
      });
      expect(same.status).toBe('available');
      for (const [driver, share] of [
        [alpha, otherPool],
        [beta, otherBackend],
      ] as const) {
        await driver.createShareFromSnapshot({
          commandId: command(),
          share,
          snapshot,
          parentShare: parent,
        });
        expect((await pollUntilSettled(driver, share)).at(-1)?.status).toBe('available');
      }

      for (const share of [samePool, otherPool, otherBackend]) {
        const dir = dirOf(share);
        expect(isSubvolume(dir)).toBe(true);
        expect(qgroupOf(dir).maxReferenced).toBe(share.sizeGiB * GIB);
        expect(fs.readFileSync(path.join(dir, 'f.bin')).equals(Buffer.alloc(8 * MIB, 7))).toBe(
          true,
        );
        expect(fallocate(path.join(dir, 'big'), share.sizeGiB * GIB + 16 * MIB)).toMatch(
          /Disk quota exceeded/,
        );
        const driver = share === otherBackend ? beta : alpha;
        const status = await driver.getShareStatus({ commandId: command(), share });
        expect(status.usage).toMatchObject({ enforcement: 'enforced', strategy: 'btrfs-qgroup' });
      }

      for (const share of [samePool, otherPool]) {
        await alpha.deleteShare({ commandId: command(), share });
      }
      await beta.deleteShare({ commandId: command(), share: otherBackend });
      await alpha.deleteSnapshot({ commandId: command(), snapshot, share: parent });
      await alpha.deleteShare({ commandId: command(), share: parent });
      expect(subvolumePaths().filter((entry) => entry.startsWith(path.basename(root)))).toEqual([]);
    }, 60_000);

    it('given a replica on another back end, then it is a limited subvolume too, and its snapshot instances are subvolume snapshots', async () => {
      const active = newShare(A, 'p1', { sizeGiB: 1, replicaState: 'active' });
      await alpha.createShare({ commandId: command(), share: active });
      fs.writeFileSync(path.join(dirOf(active), 'f.txt'), 'replicated');
      const replica = newShare(B, 'p1', {
        sizeGiB: 1,
        shareId: active.shareId,
        replicaState: 'out_of_sync',
      });

      await beta.createReplica({
        commandId: command(),
        replicaList: [active, replica],
        newReplica: replica,
        accessRules: [],
        replicaSnapshots: [],
      });

      expect(isSubvolume(dirOf(replica))).toBe(true);
      expect(qgroupOf(dirOf(replica)).maxReferenced).toBe(GIB);
      expect(fs.readFileSync(path.join(dirOf(replica), 'f.txt'), 'utf8')).toBe('replicated');
      const snapshotId = randomUUID();
      const replicaSnapshots = [newSnapshot(active, snapshotId), newSnapshot(replica, snapshotId)];
      await alpha.createReplicatedSnapshot({
        commandId: command(),
        replicaList: [active, replica],
        replicaSnapshots,
      });
      const layout = new LocalLayout(root);
      for (const instance of replicaSnapshots) {
        const host = instance.shareInstanceId === active.instanceId ? active.host : replica.host;
        const dir = layout.snapshotDir(host, instance.snapshotInstanceId);
        expect(isSubvolume(dir)).toBe(true);
        expect(fs.readFileSync(path.join(dir, 'f.txt'), 'utf8')).toBe('replicated');
      }
      await alpha.deleteReplicatedSnapshot({
        commandId: command(),
        replicaList: [active, replica],
        replicaSnapshots,
      });
      await beta.deleteReplica({
        commandId: command(),
        replicaList: [active, replica],
        replica,
        replicaSnapshots: [],
      });
      expect(fs.existsSync(dirOf(replica))).toBe(false);
      expect(subvolumePaths()).not.toContain(replica.instanceId);
    });

    it('given work a crash cut short, when shares are ensured, then a subvolume without metadata is finished or removed and limits follow the metadata', async () => {
      const layout = new LocalLayout(root);
      const store = new LocalStore(layout);
      const created = newShare(A, 'p1', { sizeGiB: 1 });
      // Crashed after the subvolume was made, before it was limited and recorded.
      await store.writeMarker(A, marker('createShare', created.instanceId, { share: created }));
      btrfs(['subvolume', 'create', dirOf(created)]);
      // Crashed after cloning a snapshot into a new share, before recording it.
      const parent = newShare(A, 'p1', { sizeGiB: 1 });
      await alpha.createShare({ commandId: command(), share: parent });
      const snapshot = newSnapshot(parent);
      await alpha.createSnapshot({ commandId: command(), snapshot, share: parent });
      const cloned = newShare(A, 'p1', { sizeGiB: 1 });
      const snapshotDir = layout.snapshotDir(parent.host, snapshot.snapshotInstanceId);
      await store.writeMarker(
        A,
        marker('createShareFromSnapshot', cloned.instanceId, {
          commandId: 'crashed',
          share: cloned,
          snapshot,
          parentShare: parent,
        }),
      );
      btrfs(['subvolume', 'snapshot', snapshotDir, dirOf(cloned)]);
      // Crashed after raising the limit, before recording the new size.
      btrfs(['qgroup', 'limit', String(5 * GIB), dirOf(parent)]);
      // Crashed while deleting: the marker is written, the subvolume still there.
      const deleted = newShare(A, 'p1', { sizeGiB: 1 });
      await alpha.createShare({ commandId: command(), share: deleted });
      await store.writeMarker(A, marker('deleteShare', deleted.instanceId, { share: deleted }));
      // Crashed after taking a read-only snapshot, before recording it.
      const halfTaken = newSnapshot(parent);
      await store.writeMarker(
        A,
        marker('createSnapshot', halfTaken.snapshotInstanceId, {
          snapshot: halfTaken,
          share: parent,
        }),
      );
      const halfTakenDir = layout.snapshotDir(parent.host, halfTaken.snapshotInstanceId);
      btrfs(['subvolume', 'snapshot', '-r', dirOf(parent), halfTakenDir]);
      await alpha.close();

      const restarted = await start(A, ['p1', 'p2']);
      const ensured = await restarted.ensureShares({
        commandId: command(),
        shares: [created, cloned, parent, deleted],
      });

      expect(ensured.shares.map((entry) => [entry.instanceId, entry.outcome])).toEqual([
        [created.instanceId, 'completed'],
        [cloned.instanceId, 'rolled_back'],
        [parent.instanceId, 'present'],
        [deleted.instanceId, 'missing'],
      ]);
      expect(qgroupOf(dirOf(created)).maxReferenced).toBe(GIB);
      const status = await restarted.getShareStatus({ commandId: command(), share: created });
      await restarted.close();
      expect(status.usage).toMatchObject({ enforcement: 'enforced', strategy: 'btrfs-qgroup' });
      expect(fs.existsSync(dirOf(cloned))).toBe(false);
      expect(qgroupOf(dirOf(parent)).maxReferenced).toBe(GIB);
      expect(fs.existsSync(dirOf(deleted))).toBe(false);
      expect(ensured.recovered).toContainEqual(
        expect.objectContaining({
          operation: 'createSnapshot',
          resourceId: halfTaken.snapshotInstanceId,
          resolution: 'rolled_back',
        }),
      );
      expect(fs.existsSync(halfTakenDir)).toBe(false);
      const left = subvolumePaths().filter((entry) => entry.startsWith(path.basename(root)));
      expect(left.map((entry) => path.basename(entry)).sort()).toEqual(
        [created.instanceId, parent.instanceId, snapshot.snapshotInstanceId].sort(),
      );
    });
  });

  function marker(operation: string, resourceId: string, request: unknown) {
    return {
      operation: operation as 'createShare',
      commandId: 'crashed',
      resourceId,
      request,
      startedAt: new Date().toISOString(),
    };
  }

  function btrfs(args: string[]): string {
    return execFileSync('btrfs', args, { encoding: 'utf8', stdio: 'pipe' });
  }

  function isSubvolume(dir: string): boolean {
    return fs.statSync(dir).ino === 256;
  }

  function subvolumeId(dir: string): string {
    return btrfs(['inspect-internal', 'rootid', dir]).trim();
  }

  function qgroupOf(dir: string): { referenced: number; maxReferenced: number | null } {
    const id = subvolumeId(dir);
    const line = btrfs(['qgroup', 'show', '--sync', '--raw', '-re', '-f', dir])
      .split('\n')
      .find((entry) => entry.startsWith(`0/${id} `));
    const [, referenced, , maxReferenced] = line!.trim().split(/\s+/);
    return {
      referenced: Number(referenced),
      maxReferenced: maxReferenced === 'none' ? null : Number(maxReferenced),
    };
  }

  function qgroupIds(): string[] {
    return btrfs(['qgroup', 'show', '--raw', loop.mountPoint])
      .split('\n')
      .map((entry) => entry.split(/\s+/)[0] ?? '')
      .filter((id) => /^\d+\/\d+$/.test(id));
  }

  /** Paths of every subvolume, relative to the top of the file system. */
  function subvolumePaths(): string[] {
    return btrfs(['subvolume', 'list', loop.mountPoint])
      .split('\n')
      .filter(Boolean)
      .map((entry) => entry.replace(/^.* path /, ''));
  }

  function fallocate(file: string, bytes: number): string {
    try {
      execFileSync('fallocate', ['-l', String(bytes), file], { stdio: 'pipe' });
      return 'allocated';
    } catch (error) {
      return String((error as { stderr?: Buffer }).stderr);
    }
  }

  /** Writes real bytes in 4 MiB chunks until `bytes` or the first refusal. */
  function writeUntilRefused(
    file: string,
    bytes: number,
  ): { written: number; error: string | null } {
    const chunk = Buffer.alloc(4 * MIB, 0x5a);
    const handle = fs.openSync(file, 'w');
    let written = 0;
    try {
      while (written < bytes) {
        written += fs.writeSync(handle, chunk, 0, Math.min(chunk.length, bytes - written));
      }
      return { written, error: null };
    } catch (error) {
      // libuv has no name for EDQUOT: its errno tells.
      const { errno } = error as NodeJS.ErrnoException;
      return { written, error: errno === -os.constants.errno.EDQUOT ? 'EDQUOT' : String(error) };
    } finally {
      fs.closeSync(handle);
    }
  }
}
