import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { command, newShare, newSnapshot } from '../contract/share-driver.contract.js';
import { LocalShareDriver } from './local.driver.js';

const GIB = 1024 ** 3;
const MIB = 1024 * 1024;
const enabled = process.env.HAWSER_LARGE_TESTS === '1';
const title =
  'local driver: a 1 GiB share created from a snapshot in another pool copies in the background with rising progress';
const run = enabled ? it : it.skip;

describe('local driver, large data', () => {
  run(
    enabled ? title : `${title} (skipped: set HAWSER_LARGE_TESTS=1 to run)`,
    async () => {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-'));
      const driver = new LocalShareDriver({
        driver: 'local',
        name: 'large@local',
        availabilityZone: 'az-1',
        pools: [{ name: 'source' }, { name: 'target' }],
        options: { root },
      });
      try {
        await driver.initialize();
        const parent = newShare(driver.backend, 'source', { sizeGiB: 2 });
        await driver.createShare({ commandId: command(), share: parent });
        const block = randomBytes(MIB);
        const file = path.join(driver.shareDirectory(parent.host, parent.instanceId), 'data.bin');
        const handle = fs.openSync(file, 'w');
        for (let written = 0; written < GIB; written += MIB) fs.writeSync(handle, block);
        fs.closeSync(handle);
        const snapshot = newSnapshot(parent);
        await driver.createSnapshot({ commandId: command(), snapshot, share: parent });
        const share = newShare(driver.backend, 'target', { sizeGiB: 2 });

        const started = performance.now();
        const created = await driver.createShareFromSnapshot({
          commandId: command(),
          share,
          snapshot,
          parentShare: parent,
        });
        const progress: number[] = [created.progress];
        let status: string = created.status;
        while (status === 'creating_from_snapshot') {
          await sleep(100);
          const polled = await driver.getShareStatus({ commandId: command(), share });
          progress.push(polled.progress);
          status = polled.status;
        }
        const seconds = (performance.now() - started) / 1000;

        console.info(
          `1 GiB cross-pool copy: ${seconds.toFixed(2)} s (${(1024 / seconds).toFixed(0)} MiB/s), ` +
            `snapshot by ${driver.cloneMethod('source')}, progress seen: ${progress.join(', ')}`,
        );
        expect(status).toBe('available');
        expect(progress.at(-1)).toBe(100);
        expect(progress).toEqual([...progress].sort((a, b) => a - b));
        expect(new Set(progress.filter((p) => p > 0 && p < 100)).size).toBeGreaterThan(1);
        const copied = path.join(driver.shareDirectory(share.host, share.instanceId), 'data.bin');
        expect(fs.statSync(copied).size).toBe(GIB);
      } finally {
        await driver.close();
        fs.rmSync(root, { recursive: true, force: true });
      }
    },
    180_000,
  );
});
