import path from 'node:path';
import type { BackendConfig } from '#hawser/drivers';

const MIB = 1024 * 1024;

/**
 * Local back ends with real directories: `alpha` (two pools, the first only for shares under
 * 2 GiB) in az-1 and `charlie` in az-2 share the replication domain `blue`; `isolated` in az-2
 * is alone in `red`. Copies across
 * pools are capped (4 MiB/s by default) so a few MiB take long enough to watch their progress.
 */
export const fromSnapshotBackends = (
  dataDir: string,
  copyBytesPerSecond = 4 * MIB,
): BackendConfig[] => {
  const options = {
    root: path.join(dataDir, 'pools'),
    copyChunkBytes: 256 * 1024,
    copyBytesPerSecond,
  };
  return [
    {
      name: 'node-az1@alpha',
      driver: 'local',
      availabilityZone: 'az-1',
      replicationDomain: 'blue',
      pools: [{ name: 'pool1' }, { name: 'pool2' }],
      // An operator's rule (DriverFilter): pool1 takes only shares under 2 GiB.
      options: {
        ...options,
        filterFunction: "share.size < 2 or capabilities.pool_name != 'pool1'",
      },
    },
    {
      name: 'node-az2@charlie',
      driver: 'local',
      availabilityZone: 'az-2',
      replicationDomain: 'blue',
      pools: [{ name: 'pool1' }],
      options,
    },
    {
      name: 'node-az2@isolated',
      driver: 'local',
      availabilityZone: 'az-2',
      replicationDomain: 'red',
      pools: [{ name: 'pool1' }],
      options,
    },
  ];
};
