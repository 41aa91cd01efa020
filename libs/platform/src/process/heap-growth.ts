import v8 from 'node:v8';

/**
 * Bounds how far V8's old generation grows past its live part before a full collection:
 * `percent` of what the last one left (0 leaves V8's own factor, up to four times). The live
 * part is bounded by the caches' sizes, so the heap is too. V8 reads the factor at every full
 * collection, so setting it once at start applies to the whole life of the process.
 */
export const boundHeapGrowth = (percent: number): void => {
  if (percent > 0) v8.setFlagsFromString(`--heap-growing-percent=${String(percent)}`);
};
