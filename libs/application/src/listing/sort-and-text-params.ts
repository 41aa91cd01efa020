import { badRequest } from '#hawser/api-contracts';
import type { Filter } from '#hawser/read-models';
import { atLeast, type ApiVersion } from '../requester.js';

/** The sort keys every listing of named, sized resources takes, mapped to read-model fields. */
export const NAMED_RESOURCE_SORT_KEYS: Readonly<Record<string, string>> = {
  id: 'id',
  created_at: 'created_at',
  updated_at: 'updated_at',
  name: 'name',
  display_name: 'name',
  description: 'description',
  display_description: 'description',
  size: 'size',
  status: 'status',
};

export interface SortOrder {
  /** The read-model field the page is sorted by. */
  readonly field: string;
  readonly direction: 'asc' | 'desc';
  /**
   * The sort the document store takes: the field, then the id in the same direction, so pages
   * never overlap and an index on the field and the id serves the page either way.
   */
  readonly sort: readonly (readonly [string, 1 | -1])[];
}

/**
 * `sort_key` and `sort_dir` as Manila reads them: `created_at desc` when absent, a key outside
 * `sortKeys` (API name to read-model field) a 400. Shares and snapshots word a wrong direction
 * differently in Manila, hence `wrongDirection`.
 */
export const sortOrder = (
  query: Readonly<Record<string, string | undefined>>,
  sortKeys: Readonly<Record<string, string>>,
  wrongDirection: (key: string, direction: string) => string,
): SortOrder => {
  const key = query.sort_key ?? 'created_at';
  const field = Object.hasOwn(sortKeys, key) ? sortKeys[key] : undefined;
  if (!field) throw badRequest(`Wrong sorting key provided - '${key}'.`);
  const direction = query.sort_dir ?? 'desc';
  if (direction !== 'asc' && direction !== 'desc') {
    throw badRequest(wrongDirection(key, direction));
  }
  const order = direction === 'asc' ? 1 : -1;
  return {
    field,
    direction,
    sort: [
      [field, order],
      ['id', order],
    ],
  };
};

/** `description` and the inexact `name~` / `description~` filters, served from 2.36. */
export const addTextFilters = (
  filter: Filter,
  query: Readonly<Record<string, string | undefined>>,
  version: ApiVersion,
): void => {
  if (!atLeast(version, '2.36')) return;
  if (query.description !== undefined) filter.description = query.description;
  if (query['name~'] !== undefined) filter.name = { $like: `%${query['name~']}%` };
  if (query['description~'] !== undefined) {
    filter.description = { $like: `%${query['description~']}%` };
  }
};
