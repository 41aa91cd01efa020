import type { SimulatedBackendConfig, SimulatedBackendOptions } from '#hawser/drivers';

/** Two zones, two back ends in each, two pools per back end, on the simulated driver. */
export const simulatedBackends = (
  options: SimulatedBackendOptions = {},
  host = 'sim',
): SimulatedBackendConfig[] =>
  ['az-1', 'az-2'].flatMap((zone, z) =>
    ['a', 'b'].map((letter) => ({
      name: `${host}@${letter}${z + 1}`,
      driver: 'simulated' as const,
      availabilityZone: zone,
      replicationDomain: 'sim-domain',
      pools: [
        { name: 'fast', totalCapacityGb: 1000 },
        { name: 'slow', totalCapacityGb: 2000 },
      ],
      options,
    })),
  );
