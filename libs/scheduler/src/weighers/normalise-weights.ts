/**
 * Manila's weigher normalisation (weighers/base.py) fused with the sum: each raw weight becomes
 * (w - min) / (max - min), or 0 for all when min == max, and `total += multiplier * normalised`.
 * Same operations in the same order as Manila, so the totals are bit-for-bit equal.
 */
export const addNormalised = (
  raw: Float64Array,
  count: number,
  multiplier: number,
  totals: Float64Array,
): void => {
  if (count === 0) return;
  let min = raw[0] as number;
  let max = min;
  for (let i = 1; i < count; i++) {
    const weight = raw[i] as number;
    if (weight < min) min = weight;
    else if (weight > max) max = weight;
  }
  if (min === max) return;
  const range = max - min;
  for (let i = 0; i < count; i++) {
    totals[i] = (totals[i] as number) + multiplier * (((raw[i] as number) - min) / range);
  }
};

/** The normalised value of one raw weight among those bounds (for reporting the winner's parts). */
export const normalisedWeight = (raw: Float64Array, count: number, index: number): number => {
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < count; i++) {
    const weight = raw[i] as number;
    if (weight < min) min = weight;
    if (weight > max) max = weight;
  }
  return min === max ? 0 : ((raw[index] as number) - min) / (max - min);
};
