import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describeShareDriverContract } from '../contract/share-driver.contract.js';
import { localContractFixture } from './test-support/local-contract-fixture.js';

describeShareDriverContract('local', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-'));
  return localContractFixture({
    root,
    // A sparse file: counted at its full size, costs no disk.
    fill: async (file, bytes) => {
      await fs.promises.writeFile(file, '');
      await fs.promises.truncate(file, bytes);
    },
    removeRoot: () => fs.promises.rm(root, { recursive: true, force: true }),
  });
});
