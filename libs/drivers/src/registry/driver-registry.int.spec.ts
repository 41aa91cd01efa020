import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sampleBackends, SAMPLE_REPLICATION_DOMAIN } from '../config/sample-backends.js';
import { command, newShare } from '../contract/share-driver.contract.js';
import { LocalShareDriver } from '../local/local.driver.js';
import { SimulatedShareDriver } from '../simulated/simulated.driver.js';
import { createDriver, DriverRegistry } from './driver-registry.js';

describe('driver registry', () => {
  let dataDir: string;

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-'));
  });

  afterEach(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('when a configuration names a driver, then that driver is built for the back end', () => {
    const simulated = createDriver({
      name: 'h@sim',
      driver: 'simulated',
      availabilityZone: 'az-1',
      pools: [{ name: 'p' }],
    });
    const local = createDriver({
      name: 'h@fs',
      driver: 'local',
      availabilityZone: 'az-1',
      pools: [{ name: 'p' }],
      options: { root: dataDir },
    });

    expect(simulated).toBeInstanceOf(SimulatedShareDriver);
    expect(local).toBeInstanceOf(LocalShareDriver);
    expect([simulated.backend, local.backend]).toEqual(['h@sim', 'h@fs']);
  });

  it.each([
    [{ name: 'no-at-sign' }, 'must be host@backend'],
    [{ pools: [] }, 'at least one pool'],
    [{ pools: [{ name: 'p' }, { name: 'p' }] }, 'listed twice'],
    [{ options: { maxOverSubscriptionRatio: 0.5 } }, 'maxOverSubscriptionRatio'],
  ])('given an invalid entry %j, then creation is refused saying %s', (override, reason) => {
    expect(() =>
      createDriver({
        name: 'h@sim',
        driver: 'simulated',
        availabilityZone: 'az-1',
        pools: [{ name: 'p' }],
        ...override,
      }),
    ).toThrow(reason);
  });

  it('given a local back end asking for writable replication, then it is refused', () => {
    expect(() =>
      createDriver({
        name: 'h@fs',
        driver: 'local',
        availabilityZone: 'az-1',
        pools: [{ name: 'p' }],
        options: { root: dataDir, replicationType: 'writable' },
      }),
    ).toThrow('writable');
  });

  it('given the sample configuration, then two zones hold two back ends of two pools each, all in one replication domain', async () => {
    const configs = sampleBackends(dataDir);

    const registry = await DriverRegistry.start(configs);

    try {
      expect(configs.map((c) => [c.availabilityZone, c.name, c.pools.map((p) => p.name)])).toEqual([
        ['az-1', 'node-az1@alpha', ['pool1', 'pool2']],
        ['az-1', 'node-az1@bravo', ['pool1', 'pool2']],
        ['az-2', 'node-az2@charlie', ['pool1', 'pool2']],
        ['az-2', 'node-az2@delta', ['pool1', 'pool2']],
      ]);
      for (const config of configs) {
        expect(config.options.root).toBe(path.join(dataDir, 'pools'));
      }
      const stats = await Promise.all(
        registry.all().map((driver) => driver.getPoolStats({ commandId: command() })),
      );
      const pools = stats.flatMap((report) => report.pools);
      expect(pools).toHaveLength(8);
      expect(new Set(pools.map((p) => p.capabilities.replication_domain))).toEqual(
        new Set([SAMPLE_REPLICATION_DOMAIN]),
      );
      expect(fs.existsSync(path.join(dataDir, 'pools', 'node-az2@delta', 'pool2', 'shares'))).toBe(
        true,
      );
      const share = newShare('node-az2@charlie', 'pool1');
      await registry.get(share.host).createShare({ commandId: command(), share });
      expect(registry.get('node-az2@charlie').backend).toBe('node-az2@charlie');
      expect(() => registry.get('node-az9@nowhere#p')).toThrow('no driver');
    } finally {
      await registry.close();
    }
  });
});
