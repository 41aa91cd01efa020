import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describeShareDriverContract } from '../../contract/share-driver.contract.js';
import { localContractFixture } from './local-contract-fixture.js';
import { LocalShareDriver } from '../local.driver.js';

/**
 * The share driver contract on pools with project quotas, run by Jest inside the quota guest
 * (quota-vm.ts) on the mount named by HAWSER_QUOTA_GUEST_MOUNT. Not a spec file: outside the
 * guest there is no such mount.
 */
const mount = process.env.HAWSER_QUOTA_GUEST_MOUNT ?? '';
let roots = 0;
const newRoot = (): string => {
  roots += 1;
  const root = path.join(mount, `root-${roots}`);
  fs.mkdirSync(root);
  return root;
};

describe('pools on the guest mount', () => {
  it('use the project-quota strategy', async () => {
    const driver = new LocalShareDriver({
      driver: 'local',
      name: 'probe@quota',
      availabilityZone: 'az-1',
      pools: [{ name: 'p1' }],
      options: { root: newRoot() },
    });
    await driver.initialize();
    expect(await driver.sizeEnforcement('p1')).toMatchObject({ strategy: 'project-quota' });
  });
});

describeShareDriverContract('local with project quotas', async () => {
  const root = newRoot();
  return localContractFixture({
    root,
    // Preallocated blocks count against the project as written data does.
    fill: async (file, bytes) => {
      execFileSync('fallocate', ['-l', String(bytes), file]);
    },
    removeRoot: async () => fs.rmSync(root, { recursive: true, force: true }),
  });
});
