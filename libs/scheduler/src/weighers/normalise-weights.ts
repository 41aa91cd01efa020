/**
 * Manila's weigher normalisation (weighers/base.py) fused with the sum: each raw weight becomes
 * (w - min) / (max - min), or 0 for all when min == max, and `total += multiplier * normalised`.
 * Same operations in the same order as Manila, so the totals are bit-for-bit equal. The min and
 * max are kept in `bounds[2 * slot]`, `bounds[2 * slot + 1]` for reporting the winner's parts.
 */
export const addNormalised = (
  raw: Float64Array,
  count: number,
  multiplier: number,
  totals: Float64Array,
  bounds: Float64Array,
  slot: number,
): void => {
  if (count === 0) return;
  let min = raw[0] as number;
  let max = min;
  for (let i = 1; i < count; i++) {
    const weight = raw[i] as number;
    if (weight < min) min = weight;
    else if (weight > max) max = weight;
  }
  bounds[2 * slot] = min;
  bounds[2 * slot + 1] = max;
  if (min === max) return;
  const range = max - min;
  for (let i = 0; i < count; i++) {
    totals[i] = (totals[i] as number) + multiplier * (((raw[i] as number) - min) / range);
  }
};

/** The normalised value of one raw weight, from the bounds addNormalised kept in `slot`. */
export const normalisedWeight = (weight: number, bounds: Float64Array, slot: number): number => {
  const min = bounds[2 * slot] as number;
  const max = bounds[2 * slot + 1] as number;
  return min === max ? 0 : (weight - min) / (max - min);
};
