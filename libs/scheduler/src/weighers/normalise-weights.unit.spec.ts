import { addNormalised, normalisedWeight } from './normalise-weights.js';

describe("Manila's weight normalisation", () => {
  it('maps raw weights to (w - min) / (max - min) and adds them times the multiplier', () => {
    const totals = new Float64Array([0, 0, 0]);
    const bounds = new Float64Array(4);
    addNormalised(new Float64Array([100, 75, 25]), 3, 1, totals, bounds, 0);
    expect([...totals]).toEqual([1, (75 - 25) / (100 - 25), 0]);
    addNormalised(new Float64Array([0, 10, 5]), 3, 2, totals, bounds, 1);
    expect([...bounds]).toEqual([25, 100, 0, 10]);
    expect([...totals]).toEqual([1, (75 - 25) / (100 - 25) + 2, 0 + 2 * 0.5]);
  });

  it('adds nothing when every raw weight is equal (a single candidate included)', () => {
    const totals = new Float64Array([0.5, 0.25]);
    addNormalised(new Float64Array([7, 7]), 2, 1, totals, new Float64Array(2), 0);
    expect([...totals]).toEqual([0.5, 0.25]);
  });

  it('reports the normalised value of one candidate from the kept bounds', () => {
    const bounds = new Float64Array(2);
    addNormalised(new Float64Array([100, 75, 25]), 3, 1, new Float64Array(3), bounds, 0);
    expect(normalisedWeight(75, bounds, 0)).toBe((75 - 25) / (100 - 25));
    addNormalised(new Float64Array([7, 7]), 2, 1, new Float64Array(2), bounds, 0);
    expect(normalisedWeight(7, bounds, 0)).toBe(0);
  });
});
