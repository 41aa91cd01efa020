import fs from 'node:fs';

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_S = 100;

const statFields = (pid: number): string[] | undefined => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name, in parentheses, may hold spaces: fields start after its closing one.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
};

const childrenOf = (): Map<number, number[]> => {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const parent = Number(statFields(pid)?.[1]);
    if (!Number.isInteger(parent)) continue;
    children.set(parent, [...(children.get(parent) ?? []), pid]);
  }
  return children;
};

/**
 * CPU seconds (user + system, with reaped children) used so far by the processes given and
 * all their descendants, read from /proc. A process that exits between two readings drops out
 * of the second, so measure trees whose processes live through the measurement.
 */
export const treeCpuSeconds = (roots: readonly number[]): number => {
  const children = childrenOf();
  const seen = new Set<number>();
  const pending = [...roots];
  let ticks = 0;
  while (pending.length > 0) {
    const pid = pending.pop() as number;
    if (seen.has(pid)) continue;
    seen.add(pid);
    const fields = statFields(pid);
    // utime, stime, cutime, cstime: fields 14 to 17 of stat, 11 to 14 after the name.
    if (fields !== undefined) for (const i of [11, 12, 13, 14]) ticks += Number(fields[i]);
    pending.push(...(children.get(pid) ?? []));
  }
  return ticks / TICKS_PER_S;
};

export const loadAverage = (): string =>
  fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
