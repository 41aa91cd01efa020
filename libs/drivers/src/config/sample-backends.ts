import path from 'node:path';
import type { LocalBackendConfig } from './backend-config.js';

/** Every sample back end shares this domain, so any can replicate or copy to any other. */
export const SAMPLE_REPLICATION_DOMAIN = 'hawser-local';

const LAYOUT = [
  { availabilityZone: 'az-1', host: 'node-az1', backends: ['alpha', 'bravo'] },
  { availabilityZone: 'az-2', host: 'node-az2', backends: ['charlie', 'delta'] },
] as const;

/**
 * The embedded default: two availability zones, two local back ends in each, two pools per
 * back end, all under `<dataDir>/pools`. Pools report 100 GiB each so placement is
 * predictable regardless of the disk they sit on.
 */
export function sampleBackends(dataDir: string): LocalBackendConfig[] {
  const root = path.join(dataDir, 'pools');
  return LAYOUT.flatMap(({ availabilityZone, host, backends }) =>
    backends.map((backend): LocalBackendConfig => ({
      name: `${host}@${backend}`,
      driver: 'local',
      availabilityZone,
      replicationDomain: SAMPLE_REPLICATION_DOMAIN,
      pools: [
        { name: 'pool1', totalCapacityGb: 100 },
        { name: 'pool2', totalCapacityGb: 100 },
      ],
      options: { root, replicationType: 'readable', reservedPercentage: 5 },
    })),
  );
}
