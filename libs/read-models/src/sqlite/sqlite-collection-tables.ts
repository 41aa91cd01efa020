import type Database from 'better-sqlite3';
import type { IndexOptions } from '../document-store.port.js';
import { isGenerationAddress } from '../generation-id.js';
import { quoted, valueSql } from './sqlite-filter.js';
import {
  countsTableName,
  countsTableSql,
  KEPT_COUNT_TRIGGERS_SQL,
  KeptCounts,
  keptCountsSql,
} from './sqlite-kept-counts.js';
import { READ_COLUMNS_SQL, STORED_DOC_SQL } from './sqlite-stored-document.js';

/** The prepared statements of one collection's table. */
export interface TableStatements {
  /** `"collection:<physical>"` (`tableSql`). */
  readonly table: string;
  readonly selectOne: Database.Statement;
  readonly selectMany: Database.Statement;
  readonly upsert: Database.Statement;
  readonly remove: Database.Statement;
  /** The counts the table keeps (see `ensureCount`), which its writes move; none: undefined. */
  readonly kept: KeptCounts | undefined;
  /** The file's schema version when these were made: another may have added or dropped counts. */
  readonly schemaVersion: number;
}

const tableName = (physical: string): string => `collection:${physical}`;

/** The table of a physical collection, quoted for SQL. */
export const tableSql = (physical: string): string => quoted(tableName(physical));

/** The name a generation address belongs to (`shares@g1` -> `shares`). */
const logicalOf = (physical: string): string => physical.split('@')[0] as string;

/**
 * One table per physical collection (`"collection:shares"`, `"collection:shares@<generation>"`),
 * holding only that collection's indexes, so a write maintains no index of another collection
 * and a rebuild's generation loads unindexed until `indexAsDeclared`. Declared indexes are
 * kept per logical name in `collection_indexes` and given to every table of that name: its
 * `fields` is the JSON list of fields, or `{"fields": [...], "sparse": true}` for a sparse one
 * (with `"sparseOn"` when another field than the first puts a document in it).
 *
 * Tables are created on first write and dropped at a swap, possibly by another process
 * sharing the file: what this connection knows exists is cached, and a read that finds its
 * table gone reads as empty.
 */
export class CollectionTables {
  private readonly known = new Map<string, TableStatements>();
  private readonly selectTable: Database.Statement;
  private readonly selectDeclared: Database.Statement;
  private readonly insertDeclared: Database.Statement;
  private readonly deleteDeclared: Database.Statement;
  private readonly selectCounted: Database.Statement;
  private readonly insertCounted: Database.Statement;
  private readonly selectSchemaVersion: Database.Statement;

  constructor(private readonly db: Database.Database) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS collection_indexes (
        collection TEXT NOT NULL,
        fields     TEXT NOT NULL,
        PRIMARY KEY (collection, fields)
      );
      CREATE TABLE IF NOT EXISTS collection_counts (
        collection TEXT NOT NULL,
        fields     TEXT NOT NULL,
        PRIMARY KEY (collection, fields)
      );
    `);
    this.selectTable = db
      .prepare(`SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?`)
      .pluck();
    this.selectDeclared = db
      .prepare('SELECT fields FROM collection_indexes WHERE collection = ?')
      .pluck();
    this.insertDeclared = db.prepare(
      'INSERT INTO collection_indexes (collection, fields) VALUES (?, ?) ON CONFLICT DO NOTHING',
    );
    this.deleteDeclared = db.prepare(
      'DELETE FROM collection_indexes WHERE collection = ? AND fields = ?',
    );
    this.selectCounted = db
      .prepare('SELECT fields FROM collection_counts WHERE collection = ?')
      .pluck();
    this.insertCounted = db.prepare(
      'INSERT INTO collection_counts (collection, fields) VALUES (?, ?) ON CONFLICT DO NOTHING',
    );
    this.selectSchemaVersion = db.prepare('PRAGMA schema_version').pluck();
    dropKeptCountTriggers(db);
  }

  /** The file's schema version, which any process's change to tables, indexes or counts moves. */
  schemaVersion(): number {
    return this.selectSchemaVersion.get() as number;
  }

  /** The statements of an existing table, or undefined when the collection has none (empty). */
  existing(physical: string): TableStatements | undefined {
    const known = this.known.get(physical);
    if (known !== undefined) return known;
    if (this.selectTable.get(tableName(physical)) === undefined) return undefined;
    return this.remember(physical);
  }

  /**
   * Runs a read on the collection's table, or says there is none: never created, or dropped by
   * another process (a swap) since this connection last looked.
   */
  readIfPresent<T>(
    physical: string,
    query: (table: TableStatements) => T,
  ): { readonly value: T } | undefined {
    const table = this.existing(physical);
    if (table === undefined) return undefined;
    try {
      return { value: query(table) };
    } catch (error) {
      if (!isMissingTable(error)) throw error;
      this.known.delete(physical);
      const again = this.existing(physical);
      return again === undefined ? undefined : { value: query(again) };
    }
  }

  /**
   * The collection's table, created when missing: with the declared indexes for a live name,
   * without any for a generation (a rebuild indexes it once loaded). Given the schema version
   * a write runs at, statements made at another are made again, so that the write moves the
   * counts the table keeps now, whichever process added them.
   */
  ensure(physical: string, schemaVersion?: number): TableStatements {
    const existing = this.existing(physical);
    if (existing !== undefined) {
      if (schemaVersion === undefined || existing.schemaVersion === schemaVersion) return existing;
      return this.remember(physical);
    }
    this.db.exec(
      `CREATE TABLE IF NOT EXISTS ${tableSql(physical)} (
        id  TEXT PRIMARY KEY,
        doc TEXT NOT NULL
      )`,
    );
    if (!isGenerationAddress(physical)) this.indexAsDeclared(physical);
    return this.remember(physical);
  }

  /** Records an index for every table of the logical name (present and future). */
  declare(logical: string, fields: readonly string[], options: IndexOptions = {}): void {
    this.insertDeclared.run(logical, declarationOf(fields, options));
  }

  undeclare(logical: string, fields: readonly string[], options: IndexOptions = {}): void {
    this.deleteDeclared.run(logical, declarationOf(fields, options));
  }

  /** Records kept counts for every table of the logical name (present and future). */
  declareCount(logical: string, fields: readonly string[]): void {
    this.insertCounted.run(logical, JSON.stringify(fields));
  }

  /** The fields each kept count of the collection's logical name is kept by. */
  countedFields(collection: string): string[][] {
    return (this.selectCounted.all(logicalOf(collection)) as string[]).map(
      (fields) => JSON.parse(fields) as string[],
    );
  }

  /** Creates the declared indexes and kept counts of the table's logical name that it lacks. */
  indexAsDeclared(physical: string): void {
    for (const declaration of this.selectDeclared.all(logicalOf(physical)) as string[]) {
      const { fields, options } = declaredIndexOf(declaration);
      this.index(physical, fields, options);
    }
    for (const fields of this.countedFields(physical)) this.keepCounts(physical, fields);
  }

  /**
   * Counts of the table's documents by `fields`, filled from what it holds and moved by its
   * writes from then on (see `KeptCounts`); nothing when the table keeps them already. Run
   * inside a transaction, so no write falls between the fill and the writes that move them.
   */
  keepCounts(physical: string, fields: readonly string[]): void {
    if (this.hasCounts(physical, fields)) return;
    this.db.exec(keptCountsSql(tableSql(physical), physical, fields));
    this.known.delete(physical);
  }

  /**
   * One expression index on the table, over the same SQL the filters and sorts use, ending with
   * the id (as MongoDB's does with `_id`): a page sorted on the fields and then the id, the
   * order every listing asks for, walks the index instead of sorting the ties.
   */
  index(physical: string, fields: readonly string[], options: IndexOptions = {}): void {
    const columns = indexColumns(fields);
    // SQLite uses a partial index for a query whose terms imply its WHERE: `x = ?` and
    // `x IN (...)` imply `x IS NOT NULL`.
    const present = presentField(fields, options);
    const where = present === undefined ? '' : ` WHERE ${valueSql(present)} IS NOT NULL`;
    this.db.exec(
      `CREATE INDEX IF NOT EXISTS ${quoted(indexName(physical, columns, options))} ON ${tableSql(physical)} (${columns.map((field) => valueSql(field)).join(', ')})${where}`,
    );
  }

  dropIndex(physical: string, fields: readonly string[], options: IndexOptions = {}): void {
    this.db.exec(
      `DROP INDEX IF EXISTS ${quoted(indexName(physical, indexColumns(fields), options))}`,
    );
  }

  /**
   * Forgets which tables exist, after a transaction or savepoint was rolled back: a table it
   * created is gone again, and is created anew on the next write.
   */
  forgetAll(): void {
    this.known.clear();
  }

  /** Drops the table and its kept counts. */
  drop(physical: string): void {
    this.db.exec(`DROP TABLE IF EXISTS ${tableSql(physical)}`);
    for (const fields of this.countedFields(physical)) {
      this.db.exec(`DROP TABLE IF EXISTS ${countsTableSql(physical, fields)}`);
    }
    this.known.delete(physical);
  }

  private hasCounts(physical: string, fields: readonly string[]): boolean {
    return this.selectTable.get(countsTableName(physical, fields)) !== undefined;
  }

  private remember(physical: string): TableStatements {
    const table = tableSql(physical);
    const kept = this.countedFields(physical).filter((fields) => this.hasCounts(physical, fields));
    const statements: TableStatements = {
      table,
      selectOne: this.db.prepare(`SELECT ${READ_COLUMNS_SQL} FROM ${table} WHERE id = ?`).raw(),
      selectMany: this.db
        .prepare(
          `SELECT ${READ_COLUMNS_SQL} FROM ${table} WHERE id IN (SELECT value FROM json_each(?))`,
        )
        .raw(),
      upsert: this.db.prepare(
        `INSERT INTO ${table} (id, doc) VALUES (?, ${STORED_DOC_SQL}) ` +
          'ON CONFLICT (id) DO UPDATE SET doc = excluded.doc',
      ),
      remove: this.db.prepare(`DELETE FROM ${table} WHERE id = ?`),
      kept: kept.length === 0 ? undefined : new KeptCounts(this.db, table, physical, kept),
      schemaVersion: this.schemaVersion(),
    };
    this.known.set(physical, statements);
    return statements;
  }
}

const indexColumns = (fields: readonly string[]): readonly string[] =>
  fields.includes('id') ? fields : [...fields, 'id'];

/** The field whose presence puts a document in a sparse index; undefined for a full one. */
const presentField = (fields: readonly string[], options: IndexOptions): string | undefined =>
  options.sparse ? (options.sparseOn ?? (fields[0] as string)) : undefined;

const sparseSuffix = (options: IndexOptions): string =>
  !options.sparse
    ? ''
    : options.sparseOn === undefined
      ? ':sparse'
      : `:sparse-on:${options.sparseOn}`;

const indexName = (physical: string, columns: readonly string[], options: IndexOptions): string =>
  `${tableName(physical)}:by:${columns.join(',')}${sparseSuffix(options)}`;

/** The text `collection_indexes` keeps for an index: a full one as before sparse ones were. */
const declarationOf = (fields: readonly string[], options: IndexOptions): string =>
  JSON.stringify(
    !options.sparse
      ? fields
      : {
          fields,
          sparse: true,
          ...(options.sparseOn !== undefined && { sparseOn: options.sparseOn }),
        },
  );

const declaredIndexOf = (
  declaration: string,
): { fields: readonly string[]; options: IndexOptions } => {
  const parsed = JSON.parse(declaration) as
    string[] | { fields: string[]; sparse: boolean; sparseOn?: string };
  if (Array.isArray(parsed)) return { fields: parsed, options: {} };
  const { fields, sparse, sparseOn } = parsed;
  return { fields, options: { sparse, ...(sparseOn !== undefined && { sparseOn }) } };
};

/**
 * Drops the triggers that kept the counts in earlier builds (the counts they kept stay right:
 * the writes move them from now on, see `KeptCounts`). Every process sharing the file runs the
 * same build, which no longer makes them.
 */
function dropKeptCountTriggers(db: Database.Database): void {
  // Read once: another process opening the file may drop them first, which IF EXISTS allows.
  const triggers = db.prepare(KEPT_COUNT_TRIGGERS_SQL).pluck().all() as string[];
  if (triggers.length === 0) return;
  db.transaction(() => {
    for (const name of triggers) db.exec(`DROP TRIGGER IF EXISTS ${quoted(name)}`);
  }).immediate();
}

/** Judged by code and message, not `instanceof` (the addon's error class crosses realms). */
export function isMissingTable(error: unknown): boolean {
  const failure = error as { code?: unknown; message?: unknown } | null;
  return (
    failure?.code === 'SQLITE_ERROR' &&
    typeof failure.message === 'string' &&
    failure.message.startsWith('no such table')
  );
}
