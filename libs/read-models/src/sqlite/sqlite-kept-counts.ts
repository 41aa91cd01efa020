import type { FieldCondition, Filter } from '../document-store.port.js';
import { operatorOf } from '../field-name.js';
import { quoted, valueSql, type SqlParam, type SqlWhere } from './sqlite-filter.js';

/**
 * Counts of a collection table's documents per value of some fields, kept by triggers on the
 * table: every write to it, by any connection to the file, moves the counts in its own
 * transaction, so a count read from them is exactly what counting the documents would give.
 * A listing's `with_count` then costs one row or a few, however many documents it counts.
 *
 * Keys are the fields' SQL values (as the filters compare them); rows whose count falls to
 * zero are removed, so the table holds one row per key in use.
 */

/** The name SQLite knows the counts table by (`sqlite_schema.name`). */
export const countsTableName = (physical: string, fields: readonly string[]): string =>
  `counts:${physical}:${fields.join(',')}`;

/** The counts table of a physical collection table, quoted for SQL. */
export const countsTableSql = (physical: string, fields: readonly string[]): string =>
  quoted(countsTableName(physical, fields));

const key = (index: number): string => `k${index}`;

/** The key columns equal to the fields' values in the row `row` (NEW or OLD). */
const keyMatches = (fields: readonly string[], row: 'NEW' | 'OLD'): string =>
  fields.map((field, i) => `${key(i)} IS ${valueSql(field, row)}`).join(' AND ');

const increment = (counts: string, fields: readonly string[]): string => {
  const values = fields.map((field) => valueSql(field, 'NEW')).join(', ');
  return (
    `INSERT INTO ${counts} (${fields.map((_, i) => key(i)).join(', ')}, n) SELECT ${values}, 0 ` +
    `WHERE NOT EXISTS (SELECT 1 FROM ${counts} WHERE ${keyMatches(fields, 'NEW')}); ` +
    `UPDATE ${counts} SET n = n + 1 WHERE ${keyMatches(fields, 'NEW')};`
  );
};

const decrement = (counts: string, fields: readonly string[]): string =>
  `UPDATE ${counts} SET n = n - 1 WHERE ${keyMatches(fields, 'OLD')}; ` +
  `DELETE FROM ${counts} WHERE n = 0 AND ${keyMatches(fields, 'OLD')};`;

/**
 * The statements that create the counts of `fields` on a physical table, fill them from the
 * documents it holds, and keep them with triggers: run in one transaction, so no write falls
 * between the fill and the triggers.
 */
export const keptCountsSql = (
  table: string,
  physical: string,
  fields: readonly string[],
): string => {
  const counts = countsTableSql(physical, fields);
  const name = countsTableName(physical, fields);
  const keys = fields.map((_, i) => key(i));
  const values = fields.map((field) => valueSql(field));
  const changed = fields
    .map((field) => `${valueSql(field, 'OLD')} IS NOT ${valueSql(field, 'NEW')}`)
    .join(' OR ');
  return `
    CREATE TABLE ${counts} (${keys.join(', ')}, n INTEGER NOT NULL);
    CREATE INDEX ${quoted(`${name}:by:keys`)} ON ${counts} (${keys.join(', ')});
    INSERT INTO ${counts} (${keys.join(', ')}, n)
      SELECT ${values.join(', ')}, COUNT(*) FROM ${table} GROUP BY ${values.join(', ')};
    CREATE TRIGGER ${quoted(`${name}:insert`)} AFTER INSERT ON ${table}
      BEGIN ${increment(counts, fields)} END;
    CREATE TRIGGER ${quoted(`${name}:delete`)} AFTER DELETE ON ${table}
      BEGIN ${decrement(counts, fields)} END;
    CREATE TRIGGER ${quoted(`${name}:update`)} AFTER UPDATE OF doc ON ${table} WHEN ${changed}
      BEGIN ${decrement(counts, fields)} ${increment(counts, fields)} END;
  `;
};

/**
 * The condition on a counts table's keys that selects the documents `filter` selects, or
 * undefined when the filter reaches beyond the counted fields or compares in a way the keys
 * cannot tell (numbers and booleans, ranges, patterns): those are counted on the documents.
 */
export const keptCountWhere = (
  fields: readonly string[],
  filter: Filter | undefined,
): SqlWhere | undefined => {
  const parts: string[] = [];
  const params: SqlParam[] = [];
  for (const [field, condition] of Object.entries(filter ?? {})) {
    const index = fields.indexOf(field);
    if (index < 0) return undefined;
    const part = keyCondition(key(index), condition, params);
    if (part === undefined) return undefined;
    parts.push(part);
  }
  return { sql: parts.length === 0 ? '' : ` WHERE ${parts.join(' AND ')}`, params };
};

/** Text or null, compared as the documents' filters compare them (null matches missing). */
const keyCondition = (
  column: string,
  condition: FieldCondition,
  params: SqlParam[],
): string | undefined => {
  if (condition === null) return `${column} IS NULL`;
  if (typeof condition === 'string') {
    params.push(condition);
    return `${column} = ?`;
  }
  if (typeof condition !== 'object') return undefined;
  const [operator, operand] = operatorOf(condition);
  if (operator === '$ne') {
    if (operand === null) return `${column} IS NOT NULL`;
    if (typeof operand !== 'string') return undefined;
    params.push(operand);
    return `${column} IS NOT ?`;
  }
  if (operator === '$in') {
    const options = operand as readonly unknown[];
    if (!options.every((option) => option === null || typeof option === 'string')) return undefined;
    if (options.length === 0) return '0';
    const each = options.map((option) => {
      if (option === null) return `${column} IS NULL`;
      params.push(option as string);
      return `${column} = ?`;
    });
    return `(${each.join(' OR ')})`;
  }
  return undefined;
};
