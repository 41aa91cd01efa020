import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { DriverError } from '../contract/driver-error.js';
import { isMissing, writeSynced } from './json-file.js';
import {
  currentProcess,
  livenessOf,
  type Liveness,
  type ProcessIdentity,
} from './process-identity.js';

/** What a lock file records: its taker, and whether it has let go. */
export interface LockHolder extends ProcessIdentity {
  readonly acquiredAt: string;
  readonly released: boolean;
}

const HELD = /^held-(\d+)\.json$/;
const PENDING = 'pending-';
/** Pending files are linked within milliseconds; older ones were left by a crash. */
const PENDING_MAX_AGE_MS = 60_000;
const MAX_ATTEMPTS = 50;

/**
 * An exclusive lock on a back end across processes, in plain files (Node has no flock).
 *
 * The lock directory holds numbered files `held-<n>.json`; the lock belongs to whoever wrote the
 * highest number, unless that file says it was released or its writer no longer runs. Taking it
 * writes `held-<n+1>.json` by `link` from a complete pending file (link fails when the name
 * exists, so of two takers of the same number one wins, and nobody ever reads a half-written
 * file), then checks no higher number appeared meanwhile (a taker that listed the directory
 * before a clean-up may reuse a pruned lower number: it sees the higher one and backs off).
 * The highest file is never deleted (release rewrites it by rename), so the highest number
 * only grows; the holder prunes the ones below it.
 */
export class BackendLock {
  private constructor(
    private readonly dir: string,
    private readonly file: string,
    private readonly holder: LockHolder,
  ) {}

  static async acquire(dir: string, backend: string): Promise<BackendLock> {
    await fs.mkdir(dir, { recursive: true });
    const self = await currentProcess();
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const highest = await highestHeld(dir);
      if (highest !== null) {
        const holder = await readHolder(path.join(dir, heldName(highest)));
        if (holder === 'missing') continue;
        if (holder !== 'unreadable' && !holder.released) {
          const liveness = await livenessOf(holder, self);
          if (liveness !== 'dead') throw lockedError(backend, dir, holder, liveness, self);
        }
      }
      const number = (highest ?? 0) + 1;
      const holder: LockHolder = { ...self, acquiredAt: new Date().toISOString(), released: false };
      const file = path.join(dir, heldName(number));
      if (!(await linkNew(dir, file, holder))) continue;
      if ((await highestHeld(dir)) !== number) {
        await fs.rm(file, { force: true });
        continue;
      }
      await prune(dir, number);
      return new BackendLock(dir, file, holder);
    }
    throw new DriverError({
      code: 'backend_error',
      userMessage: `Back end ${backend} could not be locked: its lock kept changing hands.`,
      detail: `${MAX_ATTEMPTS} attempts on ${dir}`,
    });
  }

  /**
   * Marks the lock released; the file stays, as the highest number must never disappear. A lock
   * directory removed meanwhile (the back end's data deleted) leaves nothing to release.
   */
  async release(): Promise<void> {
    const pending = pendingFile(this.dir);
    try {
      await writeSynced(pending, JSON.stringify({ ...this.holder, released: true }), 'wx');
      await fs.rename(pending, this.file);
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
  }
}

function heldName(number: number): string {
  return `held-${number}.json`;
}

function pendingFile(dir: string): string {
  return path.join(dir, `${PENDING}${process.pid}-${randomBytes(6).toString('hex')}.json`);
}

async function highestHeld(dir: string): Promise<number | null> {
  let highest: number | null = null;
  for (const name of await fs.readdir(dir)) {
    const number = HELD.exec(name)?.[1];
    if (number !== undefined) highest = Math.max(highest ?? 0, Number(number));
  }
  return highest;
}

/**
 * The holder a lock file names; `missing` when it was pruned meanwhile, `unreadable` when a
 * power cut lost its content (a running holder's file is always whole: it was linked complete).
 */
async function readHolder(file: string): Promise<LockHolder | 'missing' | 'unreadable'> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if (isMissing(error)) return 'missing';
    throw error;
  }
  try {
    return JSON.parse(text) as LockHolder;
  } catch {
    return 'unreadable';
  }
}

/** Creates `file` with its whole content at once; false when the name was taken. */
async function linkNew(dir: string, file: string, holder: LockHolder): Promise<boolean> {
  const pending = pendingFile(dir);
  await writeSynced(pending, JSON.stringify(holder), 'wx');
  try {
    await fs.link(pending, file);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // ENOENT: a holder pruned the pending file as left over; try again.
    if (code === 'EEXIST' || code === 'ENOENT') return false;
    throw error;
  } finally {
    await fs.rm(pending, { force: true });
  }
}

/** Removes lock files below the one now held and pending files left by crashes. */
async function prune(dir: string, held: number): Promise<void> {
  const now = Date.now();
  for (const name of await fs.readdir(dir)) {
    const number = HELD.exec(name)?.[1];
    const file = path.join(dir, name);
    if (number !== undefined && Number(number) < held) {
      await fs.rm(file, { force: true });
    } else if (name.startsWith(PENDING)) {
      const stat = await fs.stat(file).catch(() => null);
      if (stat && now - stat.mtimeMs > PENDING_MAX_AGE_MS) await fs.rm(file, { force: true });
    }
  }
}

function lockedError(
  backend: string,
  dir: string,
  holder: LockHolder,
  liveness: Exclude<Liveness, 'dead'>,
  self: ProcessIdentity,
): DriverError {
  const who =
    holder.pid === self.pid && liveness === 'alive'
      ? `this process (pid ${holder.pid} on host ${holder.hostname})`
      : `process ${holder.pid} on host ${holder.hostname}`;
  const remedy =
    liveness === 'other-host'
      ? `stop that node, or if host ${holder.hostname} is gone for good, delete ${dir}`
      : 'stop that node first';
  return new DriverError({
    code: 'backend_error',
    userMessage:
      `Back end ${backend} is already driven by ${who} since ${holder.acquiredAt}; ` +
      `two share nodes must not serve the same back end.`,
    detail: `lock ${dir}: ${remedy}`,
  });
}
