import fs from 'node:fs/promises';
import path from 'node:path';
import { isMissing } from '../json-file.js';
import { DriverError } from '../../contract/driver-error.js';
import { exists, measureTree, removeTree } from '../tree-operations.js';
import type { EnforcementDetector } from './detect.js';
import { hasProjectQuotas } from './mount-table.js';
import { runStorageTool, runTool, type ToolFailure } from './run-tool.js';
import {
  GIB,
  type ShareUsageFigures,
  type SizeEnforcement,
  type SizeEnforcementStrategy,
} from './size-enforcement.js';

/** The inode number of every btrfs subvolume's root directory (BTRFS_FIRST_FREE_OBJECTID). */
const SUBVOLUME_ROOT_INODE = 256;

/**
 * btrfs with quotas enabled: each share directory is a subvolume whose qgroup has a limit on
 * referenced bytes of the share's size, so a write past it fails with EDQUOT. Used bytes are
 * the qgroup's referenced bytes (real data, not apparent sizes). Snapshots are read-only
 * subvolume snapshots, and shares made from them in the same file system writable ones.
 */
export class BtrfsQgroupEnforcement implements SizeEnforcementStrategy {
  constructor(readonly description: SizeEnforcement) {}

  async prepare(dir: string, sizeGiB: number): Promise<void> {
    if (!(await isSubvolume(dir))) {
      // An empty plain directory (left by a start without quotas) becomes a subvolume; one
      // holding data stays plain and is reported, not limited.
      if ((await fs.readdir(dir).catch(() => null))?.length === 0) await fs.rmdir(dir);
      if (!(await exists(dir))) {
        await fs.mkdir(path.dirname(dir), { recursive: true });
        await btrfs(['subvolume', 'create', dir], 'The share could not be created.');
      }
    }
    await this.setLimit(dir, sizeGiB);
  }

  async setLimit(dir: string, sizeGiB: number): Promise<void> {
    if (!(await isSubvolume(dir))) return;
    await btrfs(
      ['qgroup', 'limit', String(sizeGiB * GIB), dir],
      'The share size limit could not be set.',
    );
  }

  async usage(dir: string): Promise<ShareUsageFigures> {
    if (!(await isSubvolume(dir))) {
      // A plain directory (made before quotas were enabled) is not limited: report it.
      return { usedBytes: (await measureTree(dir)).bytes, enforced: false };
    }
    const id = await subvolumeId(dir);
    const shown = await btrfs(
      ['qgroup', 'show', '--sync', '--raw', '-f', dir],
      'The share usage could not be read.',
    );
    const line = shown.split('\n').find((entry) => entry.startsWith(`0/${id} `));
    const referenced = Number(line?.trim().split(/\s+/)[1]);
    if (!Number.isFinite(referenced)) {
      throw new DriverError({
        code: 'backend_error',
        userMessage: 'The share usage could not be read.',
        detail: `no qgroup 0/${id} in "btrfs qgroup show" of ${dir}`,
      });
    }
    return { usedBytes: referenced, enforced: true };
  }

  async remove(dir: string): Promise<void> {
    if (!(await isSubvolume(dir))) {
      await removeTree(dir);
      return;
    }
    const id = await subvolumeId(dir);
    const parent = path.dirname(dir);
    await btrfs(
      ['subvolume', 'delete', '--commit-after', dir],
      'The share data could not be removed.',
    );
    // The qgroup can only go once the cleaner has dropped the subvolume; recent kernels drop
    // it themselves, older ones leave it behind unless it is destroyed.
    await btrfs(['subvolume', 'sync', parent, id], 'The share data could not be removed.');
    if (await hasQgroup(parent, id)) {
      // The kernel may drop it between the look and the destroy: only one still there fails.
      await btrfs(['qgroup', 'destroy', `0/${id}`, parent], 'The share limit remains.').catch(
        async (error: unknown) => {
          if (await hasQgroup(parent, id)) throw error;
        },
      );
    }
  }

  async snapshot(source: string, target: string): Promise<void> {
    await btrfs(
      ['subvolume', 'snapshot', '-r', source, target],
      'The snapshot could not be taken.',
    );
  }

  async cloneShare(snapshotDir: string, target: string, sizeGiB: number): Promise<void> {
    await btrfs(
      ['subvolume', 'snapshot', snapshotDir, target],
      'The share could not be created from the snapshot.',
    );
    await this.setLimit(target, sizeGiB);
  }
}

/** btrfs pools whose file system has quotas enabled (`btrfs qgroup show` succeeds). */
export const detectBtrfsQgroup: EnforcementDetector = async (poolDir, mount) => {
  if (mount.fileSystem !== 'btrfs') return null;
  try {
    await runTool('btrfs', ['qgroup', 'show', poolDir]);
  } catch (error) {
    const failure = error as ToolFailure;
    return {
      unavailable: failure.missing
        ? 'btrfs-progs is not installed'
        : `btrfs quotas are not usable (${failure.stderr}; "btrfs quota enable ${mount.mountPoint}" as root turns them on)`,
    };
  }
  return new BtrfsQgroupEnforcement({
    strategy: 'btrfs-qgroup',
    mode: 'enforced',
    fileSystem: mount.fileSystem,
    mountPoint: mount.mountPoint,
    projectQuotasMounted: hasProjectQuotas(mount),
    reason: `btrfs at ${mount.mountPoint} has quotas enabled: each share is a subvolume limited by its qgroup`,
  });
};

function btrfs(args: readonly string[], userMessage: string): Promise<string> {
  return runStorageTool('btrfs', args, userMessage);
}

async function subvolumeId(dir: string): Promise<string> {
  return (
    await btrfs(['inspect-internal', 'rootid', dir], 'The share could not be found on disk.')
  ).trim();
}

async function hasQgroup(dir: string, id: string): Promise<boolean> {
  const shown = await btrfs(['qgroup', 'show', '--raw', dir], 'The share limit remains.');
  return shown.split('\n').some((entry) => entry.startsWith(`0/${id} `));
}

async function isSubvolume(dir: string): Promise<boolean> {
  try {
    const stat = await fs.lstat(dir);
    return stat.isDirectory() && stat.ino === SUBVOLUME_ROOT_INODE;
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
}
