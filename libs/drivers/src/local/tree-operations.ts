import { constants as fsConstants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isMissing } from './json-file.js';
import { copiedBytes as copiedBytesTotal } from '#hawser/observability';

export interface TreeSize {
  readonly bytes: number;
  readonly files: number;
}

/** Apparent size of every regular file under a directory (sparse files count in full). */
export async function measureTree(dir: string): Promise<TreeSize> {
  let bytes = 0;
  let files = 0;
  const visit = async (current: string): Promise<void> => {
    let entries;
    try {
      entries = await fs.readdir(current, { withFileTypes: true });
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    for (const entry of entries) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) await visit(full);
      else if (entry.isFile()) {
        bytes += (await fs.lstat(full)).size;
        files += 1;
      }
    }
  };
  await visit(dir);
  return { bytes, files };
}

export interface CopyTreeOptions {
  readonly signal?: AbortSignal;
  readonly chunkBytes?: number;
  /** Caps the rate; unset copies as fast as the disks go. */
  readonly bytesPerSecond?: number;
  /** Called with the running total of bytes copied or found already identical. */
  readonly onProgress?: (doneBytes: number) => void;
  /** Removes entries of the target that the source lacks (rsync --delete). */
  readonly deleteExtraneous?: boolean;
}

const DEFAULT_CHUNK = 4 * 1024 * 1024;

/**
 * Copies a tree chunk by chunk, so progress is true bytes. Files whose size and modification
 * time already match are skipped, which makes an interrupted copy resumable and a replica
 * update an rsync-like transfer of changes.
 */
export async function copyTreeIncremental(
  source: string,
  target: string,
  options: CopyTreeOptions = {},
): Promise<{ readonly copiedBytes: number; readonly skippedBytes: number }> {
  const chunk = Buffer.allocUnsafe(options.chunkBytes ?? DEFAULT_CHUNK);
  const started = Date.now();
  let copiedBytes = 0;
  let skippedBytes = 0;
  const report = (): void => options.onProgress?.(copiedBytes + skippedBytes);

  const throttle = async (): Promise<void> => {
    if (!options.bytesPerSecond) return;
    const due = started + (copiedBytes / options.bytesPerSecond) * 1000;
    const wait = due - Date.now();
    if (wait > 0) await sleep(wait, undefined, { signal: options.signal });
  };

  const copyFile = async (from: string, to: string, size: number): Promise<void> => {
    await fs.rm(to, { force: true, recursive: true });
    const input = await fs.open(from, 'r');
    const output = await fs.open(to, 'w', 0o600);
    try {
      let position = 0;
      while (position < size) {
        options.signal?.throwIfAborted();
        const { bytesRead } = await input.read(chunk, 0, chunk.length, position);
        if (bytesRead === 0) break;
        await output.write(chunk, 0, bytesRead, position);
        position += bytesRead;
        copiedBytes += bytesRead;
        copiedBytesTotal.inc(bytesRead);
        report();
        await throttle();
      }
    } finally {
      await input.close();
      await output.close();
    }
  };

  const visit = async (from: string, to: string): Promise<void> => {
    options.signal?.throwIfAborted();
    const dirStat = await fs.stat(from);
    await fs.mkdir(to, { recursive: true });
    // Owner-writable while filling; the source's mode is restored below.
    await fs.chmod(to, dirStat.mode | 0o700);
    const entries = await fs.readdir(from, { withFileTypes: true });
    if (options.deleteExtraneous) {
      const wanted = new Set(entries.map((entry) => entry.name));
      for (const existing of await fs.readdir(to)) {
        if (!wanted.has(existing)) await removeTree(path.join(to, existing));
      }
    }
    for (const entry of entries) {
      const fromPath = path.join(from, entry.name);
      const toPath = path.join(to, entry.name);
      if (entry.isDirectory()) {
        await visit(fromPath, toPath);
      } else if (entry.isSymbolicLink()) {
        const link = await fs.readlink(fromPath);
        const current = await fs.readlink(toPath).catch(() => null);
        if (current !== link) {
          await fs.rm(toPath, { force: true, recursive: true });
          await fs.symlink(link, toPath);
        }
      } else if (entry.isFile()) {
        const stat = await fs.stat(fromPath);
        const existing = await fs.lstat(toPath).catch(() => null);
        if (existing?.isFile() && existing.size === stat.size && sameTime(existing, stat)) {
          skippedBytes += stat.size;
          report();
        } else {
          await copyFile(fromPath, toPath, stat.size);
          await fs.utimes(toPath, stat.atimeMs / 1000, stat.mtimeMs / 1000);
        }
        await fs.chmod(toPath, stat.mode & 0o7777);
      }
    }
    await fs.chmod(to, dirStat.mode & 0o7777);
  };

  await visit(source, target);
  return { copiedBytes, skippedBytes };
}

/** Modification times as rsync compares them: equal within a millisecond (utimes rounding). */
function sameTime(a: { mtimeMs: number }, b: { mtimeMs: number }): boolean {
  return Math.abs(a.mtimeMs - b.mtimeMs) < 1;
}

/** `subvolume`: a read-only btrfs snapshot; `reflink`: shared blocks; `copy`: new blocks. */
export type CloneMethod = 'subvolume' | 'reflink' | 'copy';

/** A point-in-time copy, sharing blocks (reflink) where the file system can. */
export async function cloneTree(
  source: string,
  target: string,
  method: 'reflink' | 'copy',
): Promise<void> {
  const flags = method === 'reflink' ? fsConstants.COPYFILE_FICLONE_FORCE : 0;
  const visit = async (from: string, to: string): Promise<void> => {
    const dirStat = await fs.stat(from);
    await fs.mkdir(to, { recursive: true, mode: 0o700 });
    for (const entry of await fs.readdir(from, { withFileTypes: true })) {
      const fromPath = path.join(from, entry.name);
      const toPath = path.join(to, entry.name);
      if (entry.isDirectory()) await visit(fromPath, toPath);
      else if (entry.isSymbolicLink()) await fs.symlink(await fs.readlink(fromPath), toPath);
      else if (entry.isFile()) {
        const stat = await fs.stat(fromPath);
        await fs.copyFile(fromPath, toPath, flags);
        await fs.utimes(toPath, stat.atimeMs / 1000, stat.mtimeMs / 1000);
        await fs.chmod(toPath, stat.mode & 0o7777);
      }
    }
    await fs.chmod(to, dirStat.mode & 0o7777);
  };
  await visit(source, target);
}

/** Whether files in `dir` can be cloned; tried once per pool with a one-byte probe. */
export async function probeReflink(dir: string): Promise<CloneMethod> {
  const probe = path.join(dir, `.reflink-probe-${process.pid}`);
  const clone = `${probe}.clone`;
  await fs.writeFile(probe, 'x');
  try {
    await fs.copyFile(probe, clone, fsConstants.COPYFILE_FICLONE_FORCE);
    return 'reflink';
  } catch {
    return 'copy';
  } finally {
    await fs.rm(probe, { force: true });
    await fs.rm(clone, { force: true });
  }
}

/** Adds or removes write permission throughout a tree (read-only replicas). */
export async function setTreeWritable(dir: string, writable: boolean): Promise<void> {
  const apply = async (target: string, mode: number): Promise<void> => {
    await fs.chmod(target, writable ? mode | 0o200 : mode & ~0o222 & 0o7777);
  };
  const visit = async (current: string): Promise<void> => {
    const stat = await fs.lstat(current);
    if (stat.isSymbolicLink()) return;
    if (stat.isDirectory()) {
      // Directories must stay writable while their children change.
      await fs.chmod(current, stat.mode | 0o700);
      for (const name of await fs.readdir(current)) await visit(path.join(current, name));
    }
    await apply(current, stat.mode);
  };
  try {
    await visit(dir);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
}

/** Removes a tree even when parts of it were made read-only. */
export async function removeTree(dir: string): Promise<void> {
  await setTreeWritable(dir, true);
  await fs.rm(dir, { recursive: true, force: true });
}

export async function exists(target: string): Promise<boolean> {
  try {
    await fs.lstat(target);
    return true;
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
}
