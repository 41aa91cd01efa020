import fs from 'node:fs/promises';
import type { PoolStats } from '../contract/share-driver.js';
import { buildPoolStats, roundGb, type DriverTraits } from '../common/pool-capabilities.js';
import type { LocalContext } from './local-context.js';
import { GIB } from './size-enforcement/size-enforcement.js';
import { measureTree } from './tree-operations.js';

export const LOCAL_TRAITS: DriverTraits = {
  vendorName: 'Hawser',
  driverVersion: '1.0',
  storageProtocol: 'NFS_CIFS',
  thinProvisioningDefault: true,
  revertToSnapshotSupport: true,
  mountSnapshotSupport: true,
};

/**
 * Capacity per pool: the configured size, or the file system's; free space is what the pool's
 * data leaves of it, never more than the file system has free. Usage is measured by walking.
 */
export async function measurePoolStats(context: LocalContext, now: Date): Promise<PoolStats[]> {
  const stats: PoolStats[] = [];
  for (const pool of context.config.pools) {
    const host = `${context.backend}#${pool.name}`;
    const dir = context.layout.poolDir(host);
    const fsStats = await fs.statfs(dir);
    const fsTotal = (fsStats.blocks * fsStats.bsize) / GIB;
    const fsFree = (fsStats.bavail * fsStats.bsize) / GIB;
    const shares = await measureTree(`${dir}/shares`);
    const snapshots = await measureTree(`${dir}/snapshots`);
    const usedGb = (shares.bytes + snapshots.bytes) / GIB;
    const total = pool.totalCapacityGb ?? fsTotal;
    const allocated = (await context.store.listShares([host])).reduce(
      (sum, meta) => sum + meta.sizeGiB,
      0,
    );
    const built = buildPoolStats(
      context.config,
      LOCAL_TRAITS,
      {
        poolName: pool.name,
        totalCapacityGb: roundGb(total),
        freeCapacityGb: roundGb(Math.max(0, Math.min(total - usedGb, fsFree))),
        allocatedCapacityGb: allocated,
        provisionedCapacityGb: allocated,
      },
      now,
    );
    const { strategy } = (await context.enforcementFor(host)).description;
    stats.push({ ...built, capabilities: { ...built.capabilities, size_enforcement: strategy } });
  }
  return stats;
}
