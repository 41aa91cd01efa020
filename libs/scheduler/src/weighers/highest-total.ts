/** The winner of a decision: the first highest total, how many share it, the best total below. */
export interface Highest {
  readonly best: number;
  readonly weight: number;
  readonly ties: number;
  /** -Infinity when no total is below the best. */
  readonly runnerUp: number;
}

/**
 * One pass over the totals: the first maximum, how many equal it, and the largest of the
 * others. A new maximum turns the old one (seen ties > 0, so not NaN) into the runner-up.
 */
export const highestTotal = (totals: Float64Array, count: number): Highest => {
  let best = 0;
  let weight = totals[0] as number;
  let ties = weight === weight ? 1 : 0;
  let runnerUp = -Infinity;
  for (let i = 1; i < count; i++) {
    const total = totals[i] as number;
    if (total > weight) {
      if (ties > 0 && weight > runnerUp) runnerUp = weight;
      best = i;
      weight = total;
      ties = 1;
    } else if (total === weight) ties++;
    else if (total > runnerUp) runnerUp = total;
  }
  return { best, weight, ties, runnerUp };
};

/**
 * What one pass over a weigher's raw weights tells: Manila's normalisation bounds (min and max,
 * found exactly as normalise-weights.ts does) and, at the end its multiplier favours (the
 * highest weight for a positive one, the lowest for a negative one), where that extreme first
 * occurs, how often, and the nearest other value.
 */
export class RawSummary {
  min = 0;
  max = 0;
  /** Whether the summary is of the highest weights (else of the lowest). */
  highest = true;
  first = 0;
  extremeCount = 0;
  nearest = 0;
  sawNaN = false;

  /** Reads `raw[0..count)`, count > 0. */
  read(raw: Float64Array, count: number, highest: boolean): void {
    // For the lowest weights, the same pass over the negated values.
    const sign = highest ? 1 : -1;
    let min = raw[0] as number;
    let max = min;
    let extreme = sign * min;
    let first = 0;
    let extremeCount = 1;
    let nearest = -Infinity;
    let sawNaN = min !== min;
    for (let i = 1; i < count; i++) {
      const weight = raw[i] as number;
      if (weight !== weight) {
        sawNaN = true;
        continue;
      }
      if (weight < min) min = weight;
      else if (weight > max) max = weight;
      const signed = sign * weight;
      if (signed > extreme) {
        nearest = extreme;
        extreme = signed;
        first = i;
        extremeCount = 1;
      } else if (signed === extreme) extremeCount++;
      else if (signed > nearest) nearest = signed;
    }
    this.min = min;
    this.max = max;
    this.highest = highest;
    this.first = first;
    this.extremeCount = extremeCount;
    this.nearest = sign * nearest;
    this.sawNaN = sawNaN;
  }
}

/**
 * The winner when a single weigher adds to the totals (min < max), without computing every
 * total: total(w) = 0 + multiplier * ((w - min) / (max - min)) never decreases as w grows (for
 * a positive multiplier; never increases for a negative one), so the first highest total is at
 * the first highest (lowest) raw weight, unless rounding gives the nearest other raw weight the
 * very same total. Null then, or for NaN weights and unusual bounds or multipliers: the caller
 * computes every total.
 */
export const highestOfOne = (summary: RawSummary, multiplier: number): Highest | null => {
  const { min, max } = summary;
  const range = max - min;
  if (summary.sawNaN || !(range > 0) || !Number.isFinite(range)) return null;
  if (multiplier === 0 || !Number.isFinite(multiplier)) return null;
  if (summary.highest !== multiplier > 0) return null;
  const total = (weight: number): number => 0 + multiplier * ((weight - min) / range);
  const weight = total(summary.highest ? max : min);
  const runnerUp = total(summary.nearest);
  if (!(runnerUp < weight)) return null;
  return { best: summary.first, weight, ties: summary.extremeCount, runnerUp };
};
