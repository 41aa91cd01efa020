import { truthy, type PyValue } from './python-values.js';

/** DriverFilter: the pool passes when the filter function's result is truthy. */
export const filterPasses = (result: PyValue): boolean => truthy(result);

/**
 * GoodnessWeigher: a boolean counts 100 or 0, a number outside 0..100 counts 0. (A string or
 * list result makes Manila raise TypeError and fail the request; here it counts 0.)
 */
export const goodnessRating = (result: PyValue): number => {
  if (typeof result === 'boolean') return result ? 100 : 0;
  if (typeof result !== 'number') return 0;
  return result < 0 || result > 100 ? 0 : result;
};
