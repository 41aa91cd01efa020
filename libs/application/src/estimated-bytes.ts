/**
 * A plain value's heap bytes, roughly as V8 lays it out: a header per object and string, a slot
 * per property or element, a byte per character. Shared and internalized strings are counted in
 * each holder, so it errs high. What bounds the caches whose entries vary in size.
 */
export const estimatedBytes = (value: unknown): number => {
  if (typeof value === 'string') return 16 + value.length;
  if (typeof value !== 'object' || value === null) return 8;
  let bytes = 32;
  for (const held of Object.values(value)) bytes += 8 + estimatedBytes(held);
  return bytes;
};
