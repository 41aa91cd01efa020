import fs from 'node:fs/promises';
import os from 'node:os';

/**
 * Who a process is, well enough to tell later whether it still runs: the pid alone is not
 * enough, since pids are reused, so the kernel's boot id and the process's start time (clock
 * ticks since boot, from /proc) go with it. Both are null where /proc does not give them.
 */
export interface ProcessIdentity {
  readonly pid: number;
  readonly hostname: string;
  readonly bootId: string | null;
  readonly startTicks: string | null;
}

export type Liveness = 'alive' | 'dead' | 'other-host';

export async function currentProcess(): Promise<ProcessIdentity> {
  return {
    pid: process.pid,
    hostname: os.hostname(),
    bootId: await bootId(),
    startTicks: (await procStat(process.pid))?.startTicks ?? null,
  };
}

/**
 * Whether `other` still runs, judged from `self`'s host. A process of another host (or of a
 * container with its own host name) cannot be checked from here: `other-host`. On the same
 * host, another boot id means the machine restarted since; otherwise the pid must exist, not
 * be a zombie, and have started at the recorded time.
 */
export async function livenessOf(other: ProcessIdentity, self: ProcessIdentity): Promise<Liveness> {
  if (other.hostname !== self.hostname) return 'other-host';
  if (other.bootId && self.bootId && other.bootId !== self.bootId) return 'dead';
  if (!pidExists(other.pid)) return 'dead';
  const stat = await procStat(other.pid);
  // Unreadable (e.g. /proc mounted with hidepid): the pid exists, so it counts as running.
  if (!stat) return 'alive';
  if (stat.state === 'Z' || stat.state === 'X') return 'dead';
  if (other.startTicks && stat.startTicks !== other.startTicks) return 'dead';
  return 'alive';
}

function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function bootId(): Promise<string | null> {
  try {
    return (await fs.readFile('/proc/sys/kernel/random/boot_id', 'utf8')).trim() || null;
  } catch {
    return null;
  }
}

/** State and start time from /proc/<pid>/stat (fields 3 and 22; the name may hold spaces). */
async function procStat(pid: number): Promise<{ state: string; startTicks: string } | null> {
  let text: string;
  try {
    text = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const state = fields[0];
  const startTicks = fields[19];
  return state && startTicks ? { state, startTicks } : null;
}
