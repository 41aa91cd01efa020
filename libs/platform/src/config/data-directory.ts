import fs from 'node:fs';
import path from 'node:path';
import { StartupRefusal } from '../process/startup-refusal.js';

/** The files Hawser keeps in its data directory (SQLite with their WAL and shared memory). */
const DATA_FILES = ['events.sqlite', 'read-models.sqlite', 'snapshots.sqlite'].flatMap((file) => [
  file,
  `${file}-wal`,
  `${file}-shm`,
]);

const REASONS: Readonly<Record<string, string>> = {
  EROFS: 'read-only file system',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  ENOTDIR: 'a part of the path is not a directory',
  ENOENT: 'a part of the path does not exist',
  EIO: 'input/output error',
};

const reasonOf = (error: unknown): string => {
  const code = (error as NodeJS.ErrnoException).code;
  const reason = code && REASONS[code];
  if (reason) return `${reason} (${code})`;
  return error instanceof Error ? error.message : String(error);
};

/**
 * What stops `dir` from being created: a recursive mkdir reports a parent it could not make as
 * ENOENT, so the first missing ancestor is made on its own to learn the real cause (EROFS, ...).
 */
const creationFailure = (dir: string, error: unknown): unknown => {
  let missing = dir;
  while (!fs.existsSync(path.dirname(missing)) && path.dirname(missing) !== missing) {
    missing = path.dirname(missing);
  }
  try {
    fs.mkdirSync(missing);
    fs.rmdirSync(missing);
  } catch (cause) {
    return cause;
  }
  return error;
};

/** A probe left by a failed write goes if it can; the failure to report is the write's. */
const removeQuietly = (file: string): void => {
  try {
    fs.rmSync(file, { force: true });
  } catch {
    // Nothing more to learn here.
  }
};

/**
 * Why Hawser cannot keep its files in `dir`, in one line naming the directory, or undefined
 * when it can: the directory is created when missing (with its parents), then a probe file is
 * written and removed in it, and each data file already there must be writable.
 */
export function dataDirectoryProblem(dir: string): string | undefined {
  const absolute = path.resolve(dir);
  try {
    fs.mkdirSync(absolute, { recursive: true });
  } catch (error) {
    return `data directory ${absolute} cannot be created: ${reasonOf(creationFailure(absolute, error))}`;
  }
  const probe = path.join(absolute, `.hawser-write-check-${process.pid}`);
  try {
    fs.writeFileSync(probe, 'Hawser checks that it can write here.\n');
    fs.rmSync(probe);
  } catch (error) {
    removeQuietly(probe);
    return `data directory ${absolute} is not writable: ${reasonOf(error)}`;
  }
  for (const file of DATA_FILES.map((name) => path.join(absolute, name))) {
    try {
      if (fs.existsSync(file)) fs.accessSync(file, fs.constants.W_OK);
    } catch (error) {
      return `data file ${file} is not writable: ${reasonOf(error)}`;
    }
  }
  return undefined;
}

/** Refuses to start, with the one-line reason, when the data directory is unusable. */
export function refuseUnlessDataDirectoryWritable(dir: string): void {
  const problem = dataDirectoryProblem(dir);
  if (problem !== undefined) throw new StartupRefusal(problem);
}
