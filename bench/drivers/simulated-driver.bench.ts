/**
 * The simulated driver's own cost with zero latency: bursts of concurrent createShare calls,
 * without and with the operation journal (one synchronous write per call).
 *   npm run bench:drivers -- [--burst N] [--rounds R]
 * Prints one JSON line per mode with the median milliseconds per operation over the rounds.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SimulatedShareDriver, type ShareInstanceRef } from '#hawser/drivers';

const BACKEND = 'bench@simulated';

const share = (): ShareInstanceRef => ({
  shareId: randomUUID(),
  instanceId: randomUUID(),
  sizeGiB: 1,
  host: `${BACKEND}#p1`,
  protocol: 'NFS',
});

const burstMs = async (journalFile: string | undefined, burst: number): Promise<number> => {
  const driver = new SimulatedShareDriver({
    driver: 'simulated',
    name: BACKEND,
    availabilityZone: 'az-1',
    pools: [{ name: 'p1', totalCapacityGb: 1_000_000 }],
    options: journalFile ? { journalFile } : {},
  });
  await driver.initialize();
  // One call first, so the journal file is open and the code paths are compiled.
  await driver.createShare({ commandId: randomUUID(), share: share() });
  const shares = Array.from({ length: burst }, share);
  const started = process.hrtime.bigint();
  await Promise.all(
    shares.map((item) => driver.createShare({ commandId: randomUUID(), share: item })),
  );
  const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
  await driver.close();
  return elapsedMs / burst;
};

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

const main = async (): Promise<void> => {
  const { values } = parseArgs({
    options: {
      burst: { type: 'string', default: '100' },
      rounds: { type: 'string', default: '5' },
    },
  });
  const burst = Math.max(1, Number(values.burst));
  const rounds = Math.max(1, Number(values.rounds));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-bench-driver-'));
  try {
    for (const journal of [false, true]) {
      const perOperation: number[] = [];
      for (let round = 0; round < rounds; round++) {
        const file = journal ? path.join(dir, `journal-${round}.jsonl`) : undefined;
        perOperation.push(await burstMs(file, burst));
      }
      process.stdout.write(
        `${JSON.stringify({
          bench: 'simulated-driver-create-share',
          journal,
          burst,
          rounds,
          median_ms_per_op: Number(median(perOperation).toFixed(4)),
          ms_per_op_rounds: perOperation.map((value) => Number(value.toFixed(4))),
        })}\n`,
      );
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
};

await main();
