import type Database from 'better-sqlite3';
import type { FieldCondition, Filter } from '../document-store.port.js';
import { operatorOf } from '../field-name.js';
import { quoted, valueSql, type SqlParam, type SqlWhere } from './sqlite-filter.js';

/**
 * Counts of a collection table's documents per value of some fields, kept by the store's
 * writes: each write to a counted table reads the counted fields of the document it replaces or
 * deletes and of the one it leaves, and the transaction's moves are added to the counts before
 * it commits, so a count read from them is exactly what counting the documents would give. A
 * listing's `with_count` then costs one row or a few, however many documents it counts.
 *
 * Not triggers: with any trigger on a table whose writes call functions (`jsonb`, the indexes'
 * `json_extract`), SQLite opens a statement journal for every write and copies each page the
 * write changes into it first, which for the shares' seven indexes doubled an insert's cost.
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

/** The key columns equal to the bound values, one `?` a field. */
const keyMatches = (fields: readonly string[]): string =>
  fields.map((_, i) => `${key(i)} IS ?`).join(' AND ');

/**
 * The statements that create the counts of `fields` on a physical table and fill them from the
 * documents it holds: run in the transaction that first writes them, so no write falls between.
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
  return `
    CREATE TABLE ${counts} (${keys.join(', ')}, n INTEGER NOT NULL);
    CREATE INDEX ${quoted(`${name}:by:keys`)} ON ${counts} (${keys.join(', ')});
    INSERT INTO ${counts} (${keys.join(', ')}, n)
      SELECT ${values.join(', ')}, COUNT(*) FROM ${table} GROUP BY ${values.join(', ')};
  `;
};

/** The triggers earlier builds kept the counts with, to drop from a file they wrote. */
export const KEPT_COUNT_TRIGGERS_SQL =
  "SELECT name FROM sqlite_schema WHERE type = 'trigger' AND name GLOB 'counts:*'";

/** The statements that move one counts table's rows. */
interface CountsStatements {
  /** Where each of its fields is in a row of `KeptCounts.read`. */
  readonly columns: readonly number[];
  readonly add: Database.Statement;
  readonly insert: Database.Statement;
  readonly prune: Database.Statement;
}

/** The counts one physical table keeps, and the read of a document's counted fields. */
export class KeptCounts {
  /** The counted fields of one document by id: a row of values, or none when it is absent. */
  readonly read: Database.Statement;
  readonly counts: readonly CountsStatements[];

  constructor(
    db: Database.Database,
    table: string,
    physical: string,
    kept: readonly (readonly string[])[],
  ) {
    const fields = [...new Set(kept.flat())];
    const values = fields.map((field) => valueSql(field)).join(', ');
    this.read = db.prepare(`SELECT ${values} FROM ${table} WHERE id = ?`).raw();
    this.counts = kept.map((counted) => {
      const counts = countsTableSql(physical, counted);
      const keys = counted.map((_, i) => key(i)).join(', ');
      const places = counted.map(() => '?').join(', ');
      return {
        columns: counted.map((field) => fields.indexOf(field)),
        add: db.prepare(`UPDATE ${counts} SET n = n + ? WHERE ${keyMatches(counted)}`),
        insert: db.prepare(`INSERT INTO ${counts} (${keys}, n) VALUES (${places}, ?)`),
        prune: db.prepare(`DELETE FROM ${counts} WHERE n = 0 AND ${keyMatches(counted)}`),
      };
    });
  }
}

/**
 * The moves of the counts made by one batch of writes, gathered per key so that a batch of
 * writes into the same keys moves each once: `record` each write's counted fields before and
 * after it, then `flush` inside the same transaction.
 */
export class CountMoves {
  private readonly moves = new Map<
    CountsStatements,
    Map<string, { values: readonly unknown[]; delta: number }>
  >();

  /** A write's counted fields before it and after it (undefined: no document). */
  record(
    kept: KeptCounts,
    before: readonly unknown[] | undefined,
    after: readonly unknown[] | undefined,
  ): void {
    for (const counts of kept.counts) {
      const from = before && counts.columns.map((column) => before[column]);
      const to = after && counts.columns.map((column) => after[column]);
      if (from && to && from.every((value, i) => value === to[i])) continue;
      if (from) this.add(counts, from, -1);
      if (to) this.add(counts, to, 1);
    }
  }

  /** Moves the counts: one statement a key that moved, two when it is new or reaches zero. */
  flush(): void {
    for (const [counts, keys] of this.moves) {
      for (const { values, delta } of keys.values()) {
        if (delta === 0) continue;
        if (counts.add.run(delta, ...values).changes === 0 && delta > 0) {
          counts.insert.run(...values, delta);
        }
        if (delta < 0) counts.prune.run(...values);
      }
    }
    this.moves.clear();
  }

  private add(counts: CountsStatements, values: readonly unknown[], delta: number): void {
    let keys = this.moves.get(counts);
    if (keys === undefined) this.moves.set(counts, (keys = new Map()));
    const id = JSON.stringify(values);
    const move = keys.get(id);
    if (move === undefined) keys.set(id, { values, delta });
    else move.delta += delta;
  }
}

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
