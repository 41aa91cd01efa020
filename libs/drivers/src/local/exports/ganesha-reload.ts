import fs from 'node:fs/promises';
import { isMissing } from '../json-file.js';

/** What a process needs to make a back end's Ganesha reread its exports. */
export interface GaneshaTarget {
  readonly pidFile: string;
  /** Ganesha's log, read for the outcome of a reload; null when Hawser does not know it. */
  readonly logFile: string | null;
}

export type ReloadOutcome =
  | { readonly kind: 'reloaded' }
  | { readonly kind: 'not_running' }
  | { readonly kind: 'refused'; readonly errors: readonly string[] };

/** Ganesha ends a reload with one of these: exports reread, or the files did not parse. */
const RELOAD_ENDED = /Reread exports complete|Error while parsing new configuration file/;
const RELOAD_WAIT_MS = 10_000;
const POLL_MS = 20;
/** Ganesha lists the configuration's errors just after it logs the reload done. */
const ERRORS_SETTLE_MS = 100;

/**
 * SIGHUP makes Ganesha reread its export blocks and add, update or remove exports to match,
 * without dropping clients of unchanged ones. Its log says whether the blocks were taken.
 */
export async function reloadGanesha(target: GaneshaTarget): Promise<ReloadOutcome> {
  const pid = await readPid(target.pidFile);
  // The pid file outlives the server: never signal a process that took its pid since.
  if (pid === null || !(await isGanesha(pid))) return { kind: 'not_running' };
  const offset = target.logFile ? await sizeOf(target.logFile) : 0;
  try {
    process.kill(pid, 'SIGHUP');
  } catch {
    return { kind: 'not_running' };
  }
  if (!target.logFile) return { kind: 'reloaded' };
  const logged = await waitForLog(target.logFile, offset, RELOAD_ENDED, RELOAD_WAIT_MS);
  if (logged === null) return { kind: 'reloaded' };
  await new Promise((resolve) => setTimeout(resolve, ERRORS_SETTLE_MS));
  const errors = (await readFrom(target.logFile, offset))
    .split('\n')
    .filter((line) => /:CONFIG :(CRIT|MAJ)/.test(line))
    .map((line) => line.replace(/^.*:CONFIG :(CRIT|MAJ) ?:?/, '').trim());
  return errors.length > 0 ? { kind: 'refused', errors } : { kind: 'reloaded' };
}

/** The log past `offset` once it matches `pattern`, or null after `timeoutMs`. */
export async function waitForLog(
  file: string,
  offset: number,
  pattern: RegExp,
  timeoutMs: number,
  stillRunning: () => boolean = () => true,
): Promise<string | null> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const logged = await readFrom(file, offset);
    if (pattern.test(logged)) return logged;
    if (Date.now() > deadline || !stillRunning()) return null;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

export async function sizeOf(file: string): Promise<number> {
  try {
    return (await fs.stat(file)).size;
  } catch (error) {
    if (isMissing(error)) return 0;
    throw error;
  }
}

async function readFrom(file: string, offset: number): Promise<string> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, 'r');
  } catch (error) {
    if (isMissing(error)) return '';
    throw error;
  }
  try {
    const size = (await handle.stat()).size;
    if (size <= offset) return '';
    const buffer = Buffer.alloc(size - offset);
    await handle.read(buffer, 0, buffer.length, offset);
    return buffer.toString('utf8');
  } finally {
    await handle.close();
  }
}

export async function readPid(pidFile: string): Promise<number | null> {
  try {
    const pid = Number((await fs.readFile(pidFile, 'utf8')).trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

async function isGanesha(pid: number): Promise<boolean> {
  try {
    return (await fs.readFile(`/proc/${pid}/cmdline`, 'utf8')).includes('ganesha');
  } catch {
    return false;
  }
}
