import { nonNegativeParam } from './list-params.js';

/** Manila's osapi_max_limit: a larger `limit` is served as this many. */
export const MAX_LIMIT = 1000;

/**
 * One page of an in-memory listing by Manila's `limit` and `offset` query parameters
 * (`api/common.py`: non-negative integers, else 400); `more` when items follow the page.
 */
export const pageOf = <T>(
  items: readonly T[],
  query: Readonly<Record<string, string | undefined>>,
): { page: T[]; more: boolean } => {
  const limit = nonNegativeParam('limit', query.limit);
  const offset = nonNegativeParam('offset', query.offset) ?? 0;
  // No limit, or 0 (Manila's `if limit`), pages nothing: the rest from the offset, no link.
  if (!limit) return { page: items.slice(offset), more: false };
  const end = offset + Math.min(limit, MAX_LIMIT);
  return { page: items.slice(offset, end), more: end < items.length };
};
