import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/**
 * A real Node process with its heap growth bounded as `percent` says (0: V8's own) that keeps
 * 400,000 objects and replaces 4,000,000 of them one by one, each living long enough to reach
 * the old generation: the largest the old generation grew, and the live heap at the end.
 */
const churn = (percent: number): { peakMiB: number; liveMiB: number } => {
  const result = spawnSync(
    process.execPath,
    [
      '--expose-gc',
      '--input-type=module',
      '-e',
      `import v8 from 'node:v8';
       import { boundHeapGrowth } from '#hawser/platform';
       boundHeapGrowth(${String(percent)});
       const oldSpace = () =>
         v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space').space_size;
       const kept = Array.from({ length: 300000 }, (_, i) => ({ i, name: 'kept-' + i }));
       const ring = new Array(100000);
       let peak = 0;
       for (let n = 0; n < 4000000; n++) {
         ring[n % ring.length] = { n, name: 'churn-' + n };
         if (n % 10000 === 0) peak = Math.max(peak, oldSpace());
       }
       globalThis.gc();
       const live = v8.getHeapStatistics().used_heap_size;
       console.log(JSON.stringify({ peakMiB: peak / 2 ** 20, liveMiB: live / 2 ** 20, kept: kept.length }));`,
    ],
    { cwd: ROOT, encoding: 'utf8' },
  );
  expect(result.stderr).toBe('');
  return JSON.parse(result.stdout) as { peakMiB: number; liveMiB: number };
};

describe('the heap grows past its live part only as far as configured', () => {
  it('given the same churn over the same live objects, when growth is bounded to 25%, then the old generation peaks lower than with V8 left to choose', () => {
    const unbounded = churn(0);
    const bounded = churn(25);

    expect(bounded.liveMiB).toBeGreaterThan(20);
    expect(Math.abs(bounded.liveMiB - unbounded.liveMiB)).toBeLessThan(5);
    expect(bounded.peakMiB).toBeLessThan(unbounded.peakMiB);
  });
});
