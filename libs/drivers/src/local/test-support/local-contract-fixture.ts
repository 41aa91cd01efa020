import type { ShareDriver, ShareInstanceRef } from '../../contract/share-driver.js';
import {
  CONTRACT_BACKENDS,
  type ShareDriverContractFixture,
} from '../../contract/share-driver.contract.js';
import { LocalShareDriver } from '../local.driver.js';

export interface LocalContractSetup {
  /** Where both back ends keep their pools. */
  readonly root: string;
  /** Puts `bytes` of data into the file `file` of a share directory. */
  fill(file: string, bytes: number): Promise<void>;
  /** Removes the root once both drivers are closed. */
  removeRoot(): Promise<void>;
}

/** The contract's two back ends as local drivers sharing one root. */
export async function localContractFixture(
  setup: LocalContractSetup,
): Promise<ShareDriverContractFixture> {
  const primary = new LocalShareDriver({
    driver: 'local',
    ...CONTRACT_BACKENDS.primary,
    options: { root: setup.root },
  });
  const secondary = new LocalShareDriver({
    driver: 'local',
    ...CONTRACT_BACKENDS.secondary,
    options: { root: setup.root },
  });
  await primary.initialize();
  await secondary.initialize();
  const local = (driver: ShareDriver): LocalShareDriver => driver as LocalShareDriver;
  const dirOf = (driver: ShareDriver, share: ShareInstanceRef): string =>
    local(driver).shareDirectory(share.host, share.instanceId);
  return {
    primary,
    secondary,
    fillShare: (driver, share, bytes) => setup.fill(`${dirOf(driver, share)}/data`, bytes),
    appliedRules: (driver, share) => local(driver).appliedRules(share),
    dispose: async () => {
      await primary.close();
      await secondary.close();
      await setup.removeRoot();
    },
  };
}
