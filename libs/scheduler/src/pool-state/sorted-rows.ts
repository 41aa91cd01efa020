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
