import type { CommandHandler } from '#hawser/application';
import { SimulatedShareDriver } from '#hawser/drivers';
import { PlacementAdmission } from '../placement-admission.js';
import { ShareDriverOperations } from '../share-driver-operations.js';

type SimulatedConfig = ConstructorParameters<typeof SimulatedShareDriver>[0];

/** Back end `name` of the simulated driver in `zone`, with 100 GB pools named `pools`. */
export const simulatedBackend = (
  name: string,
  zone = 'az-1',
  pools: readonly string[] = ['fast'],
  more: Partial<SimulatedConfig> = {},
): SimulatedShareDriver =>
  new SimulatedShareDriver({
    name,
    driver: 'simulated',
    availabilityZone: zone,
    pools: pools.map((pool) => ({ name: pool, totalCapacityGb: 100 })),
    ...more,
  } as SimulatedConfig);

/** A share node holding back end `name` (initialised here) whose admission knows its pools. */
export const simulatedNode = async (
  commands: CommandHandler,
  name: string,
  driver: SimulatedShareDriver,
  now: () => string,
): Promise<{ operations: ShareDriverOperations; admission: PlacementAdmission }> => {
  await driver.initialize();
  const operations = new ShareDriverOperations(commands, new Map([[name, driver]]), now);
  const admission = new PlacementAdmission(commands);
  admission.observe(await driver.getPoolStats({ commandId: `stats-${name}` }), Date.now());
  return { operations, admission };
};
