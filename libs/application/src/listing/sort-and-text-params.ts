import { invalidInput } from '#hawser/api-contracts';
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
 * How Manila's database layer reads a listing's `sort_dir`, and words a wrong `sort_key`:
 * `apply_sorting` (shares) takes `asc` or `desc` in any case and refuses anything else;
 * `paginate_query` (snapshots, messages) sorts descending on `desc` and ascending on anything
 * else. Both refuse with InvalidInput ("Invalid input received: ...").
 */
export type SortManner = 'apply_sorting' | 'paginate_query';

/** `sort_key` and `sort_dir` as Manila reads them: `created_at desc` when absent. */
export const sortOrder = (
  query: Readonly<Record<string, string | undefined>>,
  sortKeys: Readonly<Record<string, string>>,
  manner: SortManner,
): SortOrder => {
  const key = query.sort_key ?? 'created_at';
  const asked = query.sort_dir ?? 'desc';
  let direction: 'asc' | 'desc';
  if (manner === 'paginate_query') {
    direction = asked === 'desc' ? 'desc' : 'asc';
  } else {
    // apply_sorting looks at the direction before the key.
    const lowered = asked.toLowerCase();
    if (lowered !== 'asc' && lowered !== 'desc') {
      throw invalidInput(
        `Wrong sorting data provided: sort key is '${key}' and sort direction is '${asked}'.`,
      );
    }
    direction = lowered;
  }
  const field = Object.hasOwn(sortKeys, key) ? sortKeys[key] : undefined;
  if (!field) {
    throw invalidInput(
      manner === 'apply_sorting'
        ? `Wrong sorting key provided - '${key}'.`
        : `Invalid sort key ${key}.`,
    );
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
