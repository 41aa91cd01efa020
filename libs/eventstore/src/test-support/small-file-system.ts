import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A small tmpfs a spec mounts for itself, to run out of space or turn read-only on demand. */
export interface SmallFileSystem {
  readonly mountPoint: string;
  /** Writes a filler file until the file system has no space left. */
  fill(): void;
  /** Removes the filler: space is back. */
  free(): void;
  /** Remounts the file system read-only or read-write. */
  remount(mode: 'ro' | 'rw'): void;
  /** Unmounts and removes the mount point; safe to call twice. */
  release(): void;
}

const CHUNK = Buffer.alloc(64 * 1024, 0x61);

/** Appends `chunk` to `fd` until the file system refuses with ENOSPC. */
const writeUntilFull = (fd: number, chunk: Buffer): void => {
  for (;;) {
    try {
      fs.writeSync(fd, chunk);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOSPC') return;
      throw error;
    }
  }
};

/**
 * Why a small file system cannot be mounted here (not root, mount refused), or undefined when
 * it can: one is mounted and unmounted to find out. Synchronous, so a spec can name the reason
 * in its titles while mounting only in its hooks (which run only when its tests do).
 */
export function smallFileSystemUnavailable(): string | undefined {
  if (process.getuid?.() !== 0) return 'needs root to mount a file system';
  try {
    mountSmallFileSystem(1024 * 1024).release();
    return undefined;
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    return `a tmpfs cannot be mounted here: ${stderr || String(error)}`;
  }
}

/** Mounts a tmpfs of `sizeBytes` under a new temporary directory. */
export function mountSmallFileSystem(sizeBytes: number): SmallFileSystem {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-small-fs-'));
  const mountPoint = path.join(dir, 'mnt');
  const filler = path.join(mountPoint, 'filler');
  fs.mkdirSync(mountPoint);
  let mounted = false;
  const run = (...args: string[]) => execFileSync('mount', args, { stdio: 'pipe' });
  const release = (): void => {
    if (mounted) {
      // Lazily when still busy (a child process holding files): it goes when they close.
      try {
        execFileSync('umount', [mountPoint], { stdio: 'pipe' });
      } catch {
        execFileSync('umount', ['--lazy', mountPoint], { stdio: 'pipe' });
      }
      mounted = false;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    run('-t', 'tmpfs', '-o', `size=${sizeBytes},mode=0755`, 'tmpfs', mountPoint);
    mounted = true;
  } catch (error) {
    release();
    throw error;
  }
  return {
    mountPoint,
    fill: () => {
      const fd = fs.openSync(filler, 'a');
      try {
        writeUntilFull(fd, CHUNK);
        // The last pages, smaller than a chunk.
        writeUntilFull(fd, CHUNK.subarray(0, 512));
      } finally {
        fs.closeSync(fd);
      }
    },
    free: () => fs.rmSync(filler, { force: true }),
    remount: (mode) => run('-o', `remount,${mode}`, mountPoint),
    release,
  };
}
