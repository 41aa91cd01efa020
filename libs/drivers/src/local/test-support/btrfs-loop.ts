import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A btrfs file system with quotas enabled, in a sparse image on a loop device. */
export interface BtrfsLoop {
  readonly mountPoint: string;
  readonly device: string;
  /** Unmounts, detaches the loop device and removes the image; safe to call twice. */
  release(): void;
}

export type BtrfsLoopResult = { readonly loop: BtrfsLoop } | { readonly skipped: string };

/**
 * Makes and mounts the file system, or says why it cannot here (not root, no btrfs-progs,
 * no loop devices). Synchronous, so a spec can name the reason in its titles.
 */
export function mountBtrfsLoop(imageBytes: number): BtrfsLoopResult {
  if (process.getuid?.() !== 0) return { skipped: 'needs root to mount a loop device' };
  for (const tool of ['mkfs.btrfs', 'btrfs', 'losetup']) {
    try {
      execFileSync(tool, ['--version'], { stdio: 'ignore' });
    } catch {
      return { skipped: `${tool} is not installed (btrfs-progs, util-linux)` };
    }
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-btrfs-'));
  const image = path.join(dir, 'pool.img');
  const mountPoint = path.join(dir, 'mnt');
  let device: string | null = null;
  let mounted = false;
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    // Lazily when still busy (a timed-out test holding files): it goes when they close.
    if (mounted) {
      mounted =
        !quietly(() => execFileSync('umount', [mountPoint], { stdio: 'pipe' })) &&
        !quietly(() => execFileSync('umount', ['--lazy', mountPoint], { stdio: 'pipe' }));
    }
    if (device) quietly(() => execFileSync('losetup', ['-d', device!], { stdio: 'pipe' }));
    // Never recurse into a file system that is still mounted.
    if (!mounted) fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    fs.writeFileSync(image, '');
    fs.truncateSync(image, imageBytes);
    execFileSync('mkfs.btrfs', ['-q', image], { stdio: 'pipe' });
    device = execFileSync('losetup', ['--find', '--show', image], { encoding: 'utf8' }).trim();
    fs.mkdirSync(mountPoint);
    execFileSync('mount', [device, mountPoint], { stdio: 'pipe' });
    mounted = true;
    execFileSync('btrfs', ['quota', 'enable', mountPoint], { stdio: 'pipe' });
  } catch (error) {
    release();
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    return { skipped: `a loop-mounted btrfs with quotas cannot be made here: ${stderr || error}` };
  }
  return { loop: { mountPoint, device, release } };
}

/**
 * Removes a tree holding btrfs subvolumes (read-only snapshots among them), deepest first,
 * as `rm -r` cannot.
 */
export function removeBtrfsTree(root: string): void {
  const visit = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) visit(path.join(dir, entry.name));
    }
    if (fs.statSync(dir).ino === 256) {
      execFileSync('btrfs', ['subvolume', 'delete', dir], { stdio: 'pipe' });
    }
  };
  if (!fs.existsSync(root)) return;
  visit(root);
  fs.rmSync(root, { recursive: true, force: true });
}

/** Runs a teardown step; false when it failed, so the next one can still run. */
function quietly(step: () => unknown): boolean {
  try {
    step();
    return true;
  } catch {
    return false;
  }
}
