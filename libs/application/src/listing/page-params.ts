import { badRequest, pythonInt } from '#hawser/api-contracts';

/** Manila's osapi_max_limit: a larger `limit` is served as this many. */
export const MAX_LIMIT = 1000;

type PageQuery = Readonly<Record<string, string | undefined>>;

/** Manila's DB_MAX_INT, the largest offset `get_pagination_params` takes. */
const DB_MAX_INT = 2_147_483_647;

/**
 * `limit` and `offset` as Manila's `get_pagination_params` reads them (snapshots, messages):
 * the limit an integer not below 0 (`limit param must be ...`), then the offset by oslo's
 * `validate_integer` (`offset must be ...`), each refused in its own words.
 */
export const paginationParams = (query: PageQuery): { limit?: number; offset: number } => {
  let limit: number | undefined;
  if (query.limit !== undefined) {
    limit = pythonInt(query.limit);
    if (limit === undefined) throw badRequest('limit param must be an integer');
    if (limit < 0) throw badRequest('limit param must be positive');
  }
  if (query.offset === undefined) return { limit, offset: 0 };
  const offset = pythonInt(query.offset);
  if (offset === undefined) throw badRequest('offset must be an integer');
  if (offset < 0) throw badRequest('offset must be >= 0');
  if (offset > DB_MAX_INT) throw badRequest(`offset must be <= ${DB_MAX_INT}`);
  return { limit, offset };
};

/**
 * `limit` and `offset` as Manila's `_validate_pagination_query` reads them (shares, replicas):
 * both integers, then neither below 0, in that order and in its words.
 */
export const validatedPagination = (query: PageQuery): { limit?: number; offset: number } => {
  const offset = query.offset === undefined ? 0 : pythonInt(query.offset);
  if (offset === undefined) throw badRequest('offset param must be an integer');
  const limit = query.limit === undefined ? undefined : pythonInt(query.limit);
  if (query.limit !== undefined && limit === undefined) {
    throw badRequest('limit param must be an integer');
  }
  if (limit !== undefined && limit < 0) throw badRequest('limit param must be positive');
  if (offset < 0) throw badRequest('offset param must be positive');
  return { limit, offset };
};

/**
 * One page of an in-memory listing by Manila's `limit` and `offset` query parameters, read as
 * `get_pagination_params` reads them; `more` when items follow the page.
 */
export const pageOf = <T>(items: readonly T[], query: PageQuery): { page: T[]; more: boolean } => {
  const { limit, offset } = paginationParams(query);
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

/**
 * The window of Manila's `common.limited` (the share replicas' listing): `offset` from 0 and at
 * most MAX_LIMIT items, an absent or 0 `limit` meaning MAX_LIMIT; both integers not below 0,
 * else a 400 with Manila's message (`_validate_pagination_query`, in its order).
 */
export const limitedWindow = (query: PageQuery): Required<ListingWindow> => {
  const { offset, limit = MAX_LIMIT } = validatedPagination(query);
  return { offset, limit: Math.min(MAX_LIMIT, limit || MAX_LIMIT) };
};
