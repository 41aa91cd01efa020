import { detectBtrfsQgroup } from './btrfs-qgroup.js';
import { findMount, hasProjectQuotas, type MountEntry } from './mount-table.js';
import { detectProjectQuota } from './project-quota.js';
import { ReportedEnforcement } from './reported.js';
import type { SizeEnforcementStrategy } from './size-enforcement.js';

/**
 * A strategy's look at a pool: null when its file system is not one it handles, a reason when
 * it is but cannot enforce there (quotas off, tools missing), else the strategy itself.
 */
export type EnforcementDetector = (
  poolDir: string,
  mount: MountEntry,
) => Promise<SizeEnforcementStrategy | { readonly unavailable: string } | null>;

/** Tried in order; the first strategy offered wins, `reported` when none is. */
const DETECTORS: readonly EnforcementDetector[] = [detectBtrfsQgroup, detectProjectQuota];

/** Which strategy the file system under `poolDir` offers (the directory must exist). */
export async function detectSizeEnforcement(poolDir: string): Promise<SizeEnforcementStrategy> {
  const mount = await findMount(poolDir);
  if (!mount) {
    return new ReportedEnforcement({
      strategy: 'reported',
      mode: 'reported',
      fileSystem: 'unknown',
      mountPoint: 'unknown',
      projectQuotasMounted: false,
      reason: 'mount table unreadable (not Linux?); sizes are reported as over-use only',
    });
  }
  const projectQuotasMounted = hasProjectQuotas(mount);
  const where = `${mount.fileSystem} at ${mount.mountPoint}`;
  let reason = projectQuotasMounted
    ? `${where} has project quotas, but no strategy applies them; sizes are reported as over-use only`
    : `${where} offers no quotas this driver applies; sizes are reported as over-use only`;
  for (const detect of DETECTORS) {
    const found = await detect(poolDir, mount);
    if (!found) continue;
    if ('unavailable' in found) {
      reason = `${where}: ${found.unavailable}; sizes are reported as over-use only`;
      continue;
    }
    return found;
  }
  return new ReportedEnforcement({
    strategy: 'reported',
    mode: 'reported',
    fileSystem: mount.fileSystem,
    mountPoint: mount.mountPoint,
    projectQuotasMounted,
    reason,
  });
}
