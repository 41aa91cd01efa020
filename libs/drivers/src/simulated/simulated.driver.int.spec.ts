import {
  describeShareDriverContract,
  CONTRACT_BACKENDS,
} from '../contract/share-driver.contract.js';
import { SimulatedShareDriver } from './simulated.driver.js';

const GIB = 1024 ** 3;

describeShareDriverContract('simulated', async () => {
  const primary = new SimulatedShareDriver({ driver: 'simulated', ...CONTRACT_BACKENDS.primary });
  const secondary = new SimulatedShareDriver({
    driver: 'simulated',
    ...CONTRACT_BACKENDS.secondary,
  });
  await primary.initialize();
  await secondary.initialize();
  const sim = (driver: unknown): SimulatedShareDriver => driver as SimulatedShareDriver;
  return {
    primary,
    secondary,
    fillShare: async (driver, share, bytes) =>
      sim(driver).setUsedGiB(share.instanceId, bytes / GIB),
    appliedRules: async (driver, share) => sim(driver).inspectShare(share.instanceId)?.rules ?? [],
    dispose: async () => {
      await primary.close();
      await secondary.close();
    },
  };
});
