import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  describeShareDriverContract,
  CONTRACT_BACKENDS,
} from '../contract/share-driver.contract.js';
import { LocalShareDriver } from './local.driver.js';

describeShareDriverContract('local', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-'));
  const primary = new LocalShareDriver({
    driver: 'local',
    ...CONTRACT_BACKENDS.primary,
    options: { root },
  });
  const secondary = new LocalShareDriver({
    driver: 'local',
    ...CONTRACT_BACKENDS.secondary,
    options: { root },
  });
  await primary.initialize();
  await secondary.initialize();
  const local = (driver: unknown): LocalShareDriver => driver as LocalShareDriver;
  return {
    primary,
    secondary,
    // A sparse file: counted at its full size, costs no disk.
    fillShare: async (driver, share, bytes) => {
      const file = path.join(local(driver).shareDirectory(share.host, share.instanceId), 'data');
      await fs.promises.writeFile(file, '');
      await fs.promises.truncate(file, bytes);
    },
    appliedRules: (driver, share) => local(driver).appliedRules(share),
    dispose: async () => {
      await primary.close();
      await secondary.close();
      await fs.promises.rm(root, { recursive: true, force: true });
    },
  };
});
