import { badRequest } from '#hawser/api-contracts';
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

/** Where a listing starts and how many it holds at most; no limit holds the rest. */
export interface ListingWindow {
  readonly offset: number;
  readonly limit?: number;
}

/** An integer query parameter as Python's `int()` reads it, else Manila's 400. */
const integerParam = (name: string, value: string): number => {
  if (!/^\s*[+-]?\d+\s*$/.test(value)) throw badRequest(`${name} param must be an integer`);
  return Number(value.trim());
};

/**
 * The window of Manila's `common.limited` (the share replicas' listing): `offset` from 0 and at
 * most MAX_LIMIT items, an absent or 0 `limit` meaning MAX_LIMIT; both integers not below 0,
 * else a 400 with Manila's message (`_validate_pagination_query`, in its order).
 */
export const limitedWindow = (
  query: Readonly<Record<string, string | undefined>>,
): Required<ListingWindow> => {
  const offset = query.offset === undefined ? 0 : integerParam('offset', query.offset);
  const limit = query.limit === undefined ? MAX_LIMIT : integerParam('limit', query.limit);
  if (limit < 0) throw badRequest('limit param must be positive');
  if (offset < 0) throw badRequest('offset param must be positive');
  return { offset, limit: Math.min(MAX_LIMIT, limit || MAX_LIMIT) };
};
