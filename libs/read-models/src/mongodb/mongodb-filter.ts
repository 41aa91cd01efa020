import type { FieldCondition, Filter, FindOptions } from '../document-store.port.js';
import { assertFieldName, likeToRegExpSource, operatorOf } from '../field-name.js';

/** The document's `id` is MongoDB's `_id`, so lookups by id use the primary index. */
export function mongoField(field: string): string {
  assertFieldName(field);
  return field === 'id' ? '_id' : field;
}

/**
 * The port's filter as a MongoDB query; the operators mean the same in both. Built from entries,
 * so a field named `__proto__` stays a field instead of replacing the query's prototype.
 */
export function mongoFilter(filter: Filter | undefined): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(filter ?? {}).map(([field, condition]) => [
      mongoField(field),
      mongoCondition(field, condition),
    ]),
  );
}

function mongoCondition(field: string, condition: FieldCondition): unknown {
  if (condition === null || typeof condition !== 'object') return condition;
  const [operator, operand] = operatorOf(condition);
  switch (operator) {
    case '$ne':
    case '$in':
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte':
    case '$exists':
      return { [operator]: operand };
    case '$like':
      return { $regex: likeToRegExpSource(String(operand)), $options: 'i' };
    default:
      throw new Error(`unsupported filter operator ${operator} on ${field}`);
  }
}

/** The sort keys, then `_id` so that paging with skip/limit is stable. */
export function mongoSort(sort: FindOptions['sort']): [string, 1 | -1][] {
  const keys = (sort ?? []).map(([field, order]): [string, 1 | -1] => [mongoField(field), order]);
  if (!keys.some(([field]) => field === '_id')) keys.push(['_id', 1]);
  return keys;
}
