import fs from 'node:fs';
import path from 'node:path';
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

/** Simulated back ends in one zone and replication domain, with the pools (name: GiB) given. */
export const simulatedPools = (
  layout: Readonly<Record<string, Readonly<Record<string, number>>>>,
): SimulatedBackendConfig[] =>
  Object.entries(layout).map(([name, pools]) => ({
    name,
    driver: 'simulated' as const,
    availabilityZone: 'az-1',
    replicationDomain: 'sim-domain',
    pools: Object.entries(pools).map(([pool, totalCapacityGb]) => ({
      name: pool,
      totalCapacityGb,
    })),
  }));

/** The pool a share without hints goes to in `backendsWithOneBigPool`. */
export const BIG_POOL = 'east@sim#big';

/**
 * One pool far emptier than the three others: without hints every share goes to `BIG_POOL`,
 * so a placement anywhere else is the hints' doing.
 */
export const backendsWithOneBigPool = (): SimulatedBackendConfig[] =>
  simulatedPools({
    'east@sim': { big: 10_000, small: 1000 },
    'west@sim': { small: 1000, other: 1000 },
  });

/**
 * `simulatedBackends(options)`, each journalling its calls to `dir/journal-<name>.jsonl`, written
 * to `dir/backends.json` for a spawned service to load (HAWSER_BACKENDS).
 */
export const journalledSimulatedBackends = (
  dir: string,
  options: SimulatedBackendOptions = {},
): SimulatedBackendConfig[] => {
  const backends = simulatedBackends(options).map((b) => ({
    ...b,
    options: { ...b.options, journalFile: path.join(dir, `journal-${b.name}.jsonl`) },
  }));
  fs.writeFileSync(path.join(dir, 'backends.json'), JSON.stringify(backends));
  return backends;
};
