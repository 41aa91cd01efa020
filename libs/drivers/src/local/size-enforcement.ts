import fs from 'node:fs/promises';
import path from 'node:path';

export interface SizeEnforcement {
  /** Always `reported` today: writes past a share's size succeed and show up as over-use. */
  readonly mode: 'reported';
  readonly fileSystem: string;
  readonly mountPoint: string;
  /** Whether the file system is mounted with project quotas, which could enforce sizes. */
  readonly projectQuotasMounted: boolean;
  readonly reason: string;
}

/**
 * Finds the mount holding `dir` in /proc/mounts and whether it offers project quotas
 * (xfs `prjquota`/`pquota`, ext4 `prjquota`). Applying those quotas needs root and
 * xfs_quota/setquota, which this driver does not run, so sizes are reported, not enforced.
 */
export async function detectSizeEnforcement(dir: string): Promise<SizeEnforcement> {
  const absolute = path.resolve(dir);
  let mounts: string;
  try {
    mounts = await fs.readFile('/proc/mounts', 'utf8');
  } catch {
    return {
      mode: 'reported',
      fileSystem: 'unknown',
      mountPoint: 'unknown',
      projectQuotasMounted: false,
      reason: 'mount table unreadable (not Linux?); sizes are reported as over-use only',
    };
  }
  let best = { mountPoint: '/', fileSystem: 'unknown', options: [] as string[] };
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
  const projectQuotasMounted = best.options.some((option) =>
    ['prjquota', 'pquota', 'pqnoenforce'].includes(option),
  );
  return {
    mode: 'reported',
    fileSystem: best.fileSystem,
    mountPoint: best.mountPoint,
    projectQuotasMounted,
    reason: projectQuotasMounted
      ? `${best.fileSystem} at ${best.mountPoint} has project quotas, but applying them is not built; sizes are reported as over-use only`
      : `${best.fileSystem} at ${best.mountPoint} is not mounted with project quotas; sizes are reported as over-use only`,
  };
}
