import type { FieldCondition, Filter, FindOptions } from '../document-store.port.js';
import { assertFieldName, operatorOf } from '../field-name.js';
import { READ_COLUMNS_SQL } from './sqlite-stored-document.js';

export type SqlParam = string | number | null;

export interface SqlWhere {
  /** ' WHERE ...', or '' when the filter is empty. */
  readonly sql: string;
  readonly params: readonly SqlParam[];
}

/** An identifier (a table's or an index's name) in double quotes, safe whatever it holds. */
export const quoted = (identifier: string): string => `"${identifier.replaceAll('"', '""')}"`;

/**
 * The SQL value of a field. Paths are inlined (not bound) so that an expression index on the
 * same text (`ensureIndex`) serves the query; `assertFieldName` keeps them safe to inline.
 */
export function valueSql(field: string): string {
  assertFieldName(field);
  return field === 'id' ? 'id' : `json_extract(doc, '$.${field}')`;
}

/** JSON type of a field: NULL when missing, 'null', 'true', 'false', 'integer', 'real', 'text'... */
function typeSql(field: string): string {
  assertFieldName(field);
  return field === 'id' ? `'text'` : `json_type(doc, '$.${field}')`;
}

/**
 * Translates a filter into SQL over a collection table's `doc`, with MongoDB's meaning where the two
 * differ: null matches a missing field, booleans are not numbers, and range operators compare
 * only values of the operand's type.
 */
export function whereSql(filter: Filter | undefined): SqlWhere {
  const parts: string[] = [];
  const params: SqlParam[] = [];
  for (const [field, condition] of Object.entries(filter ?? {})) {
    parts.push(conditionSql(field, condition, params));
  }
  return { sql: parts.length === 0 ? '' : ` WHERE ${parts.join(' AND ')}`, params };
}

function conditionSql(field: string, condition: FieldCondition, params: SqlParam[]): string {
  if (condition === null || typeof condition !== 'object')
    return equalsSql(field, condition, params);
  const [operator, operand] = operatorOf(condition);
  const value = valueSql(field);
  switch (operator) {
    case '$ne':
      // The same as below, said so that a sparse index on the field can serve it.
      if (operand === null) return `${value} IS NOT NULL`;
      // A missing field compares as NULL, and MongoDB counts it as different.
      return `NOT IFNULL(${equalsSql(field, operand as Scalar, params)}, 0)`;
    case '$in': {
      const options = operand as readonly Scalar[];
      if (options.length === 0) return '0';
      // Ids are text: as one parameter, a statement for any number of them is prepared once.
      if (field === 'id' && options.every((option) => typeof option === 'string')) {
        params.push(JSON.stringify(options));
        return 'id IN (SELECT value FROM json_each(?))';
      }
      return `(${options.map((option) => equalsSql(field, option, params)).join(' OR ')})`;
    }
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte': {
      const comparison = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' }[operator];
      params.push(rangeOperand(operand));
      return `(${sameTypeSql(field, operand as string | number)} AND ${value} ${comparison} ?)`;
    }
    case '$like':
      params.push(String(operand));
      return `(${typeSql(field)} = 'text' AND ${value} LIKE ?)`;
    case '$exists':
      return `${typeSql(field)} IS ${operand ? 'NOT ' : ''}NULL`;
    default:
      throw new Error(`unsupported filter operator ${operator} on ${field}`);
  }
}

type Scalar = string | number | boolean | null;

function equalsSql(field: string, expected: Scalar, params: SqlParam[]): string {
  if (expected === null) return `${valueSql(field)} IS NULL`;
  if (typeof expected === 'boolean') return `${typeSql(field)} IS '${String(expected)}'`;
  params.push(expected);
  // SQLite reads JSON true as 1, so a number needs its type checked; a string does not.
  return typeof expected === 'number'
    ? `(${sameTypeSql(field, expected)} AND ${valueSql(field)} = ?)`
    : `${valueSql(field)} = ?`;
}

function sameTypeSql(field: string, operand: string | number): string {
  return typeof operand === 'number'
    ? `${typeSql(field)} IN ('integer', 'real')`
    : `${typeSql(field)} = 'text'`;
}

function rangeOperand(operand: unknown): string | number {
  if (typeof operand === 'string' || typeof operand === 'number') return operand;
  throw new Error(`range operators compare strings or numbers, not ${JSON.stringify(operand)}`);
}

/** ORDER BY for the sort keys, then `id` so that paging with skip/limit is stable. */
export function orderSql(sort: FindOptions['sort']): string {
  const keys = (sort ?? []).map(([field, order]) => {
    if (order !== 1 && order !== -1) throw new Error(`sort order of ${field} must be 1 or -1`);
    return `${valueSql(field)} ${order === 1 ? 'ASC' : 'DESC'}`;
  });
  if (!(sort ?? []).some(([field]) => field === 'id')) keys.push('id ASC');
  return ` ORDER BY ${keys.join(', ')}`;
}

/** The query `find` runs on one collection's table (quoted), selecting `columns`. */
export function findSql(
  table: string,
  filter: Filter | undefined,
  options: FindOptions,
  columns = READ_COLUMNS_SQL,
): { sql: string; params: SqlParam[] } {
  const where = whereSql(filter);
  const params: SqlParam[] = [...where.params];
  let page = '';
  if (options.limit !== undefined || options.skip !== undefined) {
    // Bound inside an expression: SQLite reads a bare `LIMIT ?` as a constant, and every binding
    // of it then makes SQLite prepare the statement again (a listing's page read 25% slower).
    page = ' LIMIT (? + 0) OFFSET (? + 0)';
    // A limit or offset past what SQLite binds as an integer means "all" or "none" all the same.
    params.push(
      Math.min(options.limit ?? -1, Number.MAX_SAFE_INTEGER),
      Math.min(options.skip ?? 0, Number.MAX_SAFE_INTEGER),
    );
  }
  return {
    sql: `SELECT ${columns} FROM ${table}${where.sql}${orderSql(options.sort)}${page}`,
    params,
  };
}
