import fs from 'node:fs/promises';
import path from 'node:path';

export interface MountEntry {
  readonly mountPoint: string;
  readonly fileSystem: string;
  readonly options: readonly string[];
}

/** The mount holding `dir` according to /proc/mounts; null where there is no mount table. */
export async function findMount(dir: string): Promise<MountEntry | null> {
  const absolute = path.resolve(dir);
  let mounts: string;
  try {
    mounts = await fs.readFile('/proc/mounts', 'utf8');
  } catch {
    return null;
  }
  let best: MountEntry = { mountPoint: '/', fileSystem: 'unknown', options: [] };
  for (const line of mounts.split('\n')) {
    const [, mountPoint, fileSystem, options] = line.split(' ');
    if (!mountPoint || !fileSystem || !options) continue;
    const decoded = mountPoint.replace(/\\040/g, ' ');
    const contains =
      absolute === decoded || absolute.startsWith(decoded.endsWith('/') ? decoded : `${decoded}/`);
    if (contains && decoded.length >= best.mountPoint.length) {
      best = { mountPoint: decoded, fileSystem, options: options.split(',') };
    }
  }
  return best;
}

/** Mounted with project quotas: xfs `prjquota`/`pquota`/`pqnoenforce`, ext4 `prjquota`. */
export function hasProjectQuotas(mount: MountEntry): boolean {
  return mount.options.some((option) => ['prjquota', 'pquota', 'pqnoenforce'].includes(option));
}
