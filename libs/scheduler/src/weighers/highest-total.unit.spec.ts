import { seededRandom } from '../test-support/scheduler-fixtures.js';
import { highestOfOne, highestTotal, RawSummary } from './highest-total.js';
import { addNormalised } from './normalise-weights.js';

/** Every total computed, as Manila sums them, then the first highest. */
const byTotals = (raw: Float64Array, multiplier: number) => {
  const totals = new Float64Array(raw.length);
  addNormalised(raw, raw.length, multiplier, totals, new Float64Array(2), 0);
  return highestTotal(totals, raw.length);
};

const byOne = (raw: Float64Array, multiplier: number) => {
  const summary = new RawSummary();
  summary.read(raw, raw.length, multiplier >= 0);
  return { summary, highest: highestOfOne(summary, multiplier) };
};

describe('the highest total', () => {
  it('is the first maximum, with its ties and the largest total below it', () => {
    expect(highestTotal(new Float64Array([0.5, 1, 0.25, 1]), 4)).toEqual({
      best: 1,
      weight: 1,
      ties: 2,
      runnerUp: 0.5,
    });
  });

  it('from one weigher without every total: the same winner, ties and runner-up as from all totals', () => {
    const random = seededRandom(3);
    for (let round = 0; round < 500; round++) {
      const count = 1 + random(40);
      const spread = [3, 1000, 2 ** 40][random(3)] as number;
      const raw = Float64Array.from({ length: count }, () => random(spread) - spread / 2);
      const multiplier = [1, -1, 2.5, -0.3][random(4)] as number;
      const { summary, highest } = byOne(raw, multiplier);
      expect([summary.min, summary.max]).toEqual([Math.min(...raw), Math.max(...raw)]);
      if (summary.min === summary.max) continue;
      expect(highest).toEqual(byTotals(raw, multiplier));
    }
  });

  it('leaves it to the totals when rounding gives two raw weights the same total', () => {
    // 0 and 1 are both 2^53 above the minimum once rounded: equal totals, so 0 wins (first).
    const raw = new Float64Array([-(2 ** 53), 0, 1]);
    expect(byOne(raw, 1).highest).toBeNull();
    expect(byTotals(raw, 1)).toMatchObject({ best: 1, ties: 2 });
  });

  it('leaves NaN weights to the totals', () => {
    expect(byOne(new Float64Array([1, NaN, 3]), 1).highest).toBeNull();
  });
});
