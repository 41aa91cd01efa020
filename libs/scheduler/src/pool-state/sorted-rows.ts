/**
 * The first position in `rows[from..to)`, ascending (pool lists are in enumeration order, which
 * is row order), holding a row >= `row`; `to` when there is none.
 */
export const firstRowAtOrAfter = (
  rows: Int32Array,
  row: number,
  from: number = 0,
  to: number = rows.length,
): number => {
  let low = from;
  let high = to;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((rows[middle] as number) < row) low = middle + 1;
    else high = middle;
  }
  return low;
};

/**
 * Removes `forbidden` (ascending) from the ordered candidates: a hint names a handful of pools,
 * so each is looked up and the runs between them are moved down, instead of testing every
 * candidate.
 */
export const removeRows = (
  candidates: Int32Array,
  count: number,
  forbidden: readonly number[],
): number => {
  let kept = 0;
  let from = 0;
  for (const row of forbidden) {
    const at = firstRowAtOrAfter(candidates, row, from, count);
    if (at === count) break;
    if (candidates[at] !== row) continue;
    if (kept !== from) candidates.copyWithin(kept, from, at);
    kept += at - from;
    from = at + 1;
  }
  if (kept !== from) candidates.copyWithin(kept, from, count);
  return kept + count - from;
};
