import Database from 'better-sqlite3';
import { passesByItself, storageFailureOf } from '#hawser/eventstore';
import {
  CheckpointConflictError,
  type CheckpointMove,
  type CheckpointedWrites,
  type CommitOutcome,
  type Document,
  type Identified,
  type DocumentStore,
  type DocumentWrite,
  type Filter,
  type FindOptions,
  type IndexOptions,
  type VersionedId,
} from '../document-store.port.js';
import { generationCollection, isGenerationAddress, newGenerationId } from '../generation-id.js';
import {
  CollectionTables,
  isMissingTable,
  tableSql,
  type TableStatements,
} from './sqlite-collection-tables.js';
import { findSql, valueSql, whereSql, type SqlWhere } from './sqlite-filter.js';
import { CountMoves, countsTableSql, keptCountWhere } from './sqlite-kept-counts.js';
import { migrateSharedDocumentsTable } from './sqlite-layout-migration.js';
import { documentOf, storedText, type StoredRow } from './sqlite-stored-document.js';

export interface SqliteDocumentStoreOptions {
  /** Path of the database file, or ':memory:'. */
  readonly file: string;
  /**
   * How long a write waits for another connection's write lock before it fails as busy (5 s
   * unless given).
   */
  readonly busyTimeoutMs?: number;
}

const BUSY_TIMEOUT_MS = 5_000;
const countSql = (table: string, where: string): string => `SELECT COUNT(*) FROM ${table}${where}`;
/** Pages of WAL before a checkpoint (40 MB), as the event log has. */
const WAL_AUTOCHECKPOINT_PAGES = 10_000;
/** Distinct find shapes kept prepared; a projection's queries have few shapes. */
const MAX_CACHED_STATEMENTS = 500;

/**
 * Read-model documents in one SQLite file (WAL): one table per physical collection, keyed by
 * id, documents as JSON text queried with json_extract (`CollectionTables`). Logical names map
 * to physical generations through `collection_aliases`; a name never swapped is its own
 * physical name. better-sqlite3 is synchronous, so each method has done its work when its
 * promise is made.
 */
export class SqliteDocumentStore implements DocumentStore {
  private readonly db: Database.Database;
  private readonly tables: CollectionTables;
  private readonly statements = new Map<string, Database.Statement>();
  /** The physical name each logical collection was last read through (one entry a name). */
  private readonly aliases = new Map<string, string>();
  private readonly selectAlias: Database.Statement;
  private readonly selectCheckpoint: Database.Statement;
  private readonly insertCheckpoint: Database.Statement;
  private readonly moveCheckpoint: Database.Statement;
  private readonly commitTransaction: (
    writes: readonly DocumentWrite[],
    checkpoint: CheckpointMove,
  ) => void;
  private readonly commitAllTransaction: (
    batches: readonly CheckpointedWrites[],
  ) => CommitOutcome[];
  private readonly writeTransaction: (writes: readonly DocumentWrite[]) => void;
  private readonly swapTransaction: (collections: readonly string[], generation: string) => void;

  constructor(options: SqliteDocumentStoreOptions) {
    this.db = new Database(options.file);
    const busyTimeoutMs = options.busyTimeoutMs ?? BUSY_TIMEOUT_MS;
    this.db.pragma(`busy_timeout = ${busyTimeoutMs}`);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    // Listings and rebuilds walk tens of MB of documents; the default 2 MB cache thrashes.
    this.db.pragma('cache_size = -65536');
    // A catch-up or rebuild writes hundreds of MB: checkpoint every 40 MB of WAL, not every 4,
    // so a page rewritten by several batches is copied into the file once per checkpoint.
    this.db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS collection_aliases (
        logical  TEXT PRIMARY KEY,
        physical TEXT NOT NULL
      );
      CREATE TABLE IF NOT EXISTS prepared_generations (
        collection TEXT NOT NULL,
        generation TEXT NOT NULL,
        PRIMARY KEY (collection, generation)
      );
      CREATE TABLE IF NOT EXISTS checkpoints (
        name     TEXT PRIMARY KEY,
        position INTEGER NOT NULL
      );
    `);
    this.tables = new CollectionTables(this.db);
    migrateSharedDocumentsTable(this.db, this.tables, busyTimeoutMs);
    this.selectAlias = this.db
      .prepare('SELECT physical FROM collection_aliases WHERE logical = ?')
      .pluck();
    this.selectCheckpoint = this.db
      .prepare('SELECT position FROM checkpoints WHERE name = ?')
      .pluck();
    // The compare-and-set of a checkpoint, each one statement: a first one is inserted unless
    // another writer stored it; a stored one moves only from the position expected.
    this.insertCheckpoint = this.db.prepare(
      'INSERT INTO checkpoints (name, position) VALUES (?, ?) ON CONFLICT (name) DO NOTHING',
    );
    this.moveCheckpoint = this.db.prepare(
      'UPDATE checkpoints SET position = ? WHERE name = ? AND position = ?',
    );

    // IMMEDIATE takes the write lock before the checkpoint is read, so the compare-and-set
    // holds against other processes writing the same file.
    const commit = this.db.transaction(
      (writes: readonly DocumentWrite[], checkpoint: CheckpointMove) =>
        this.commitWithinTransaction(writes, checkpoint),
    );
    this.commitTransaction = (writes, checkpoint) =>
      this.forgettingTablesOnFailure(() => commit.immediate(writes, checkpoint));
    // A refused compare-and-set writes nothing, so batches need no savepoint of their own
    // unless a write fails half-way: then the whole transaction is undone and done again with
    // a savepoint per batch (inside the outer transaction, better-sqlite3 makes each nested
    // transaction one). Savepoints are not free: SQLite copies every page a batch changes to a
    // sub-journal first, which doubled the cost of the writes.
    const commitChecked = this.db.transaction((batches: readonly CheckpointedWrites[]) =>
      batches.map((batch) => this.commitUnlessRefused(batch)),
    );
    const commitOne = this.db.transaction((batch: CheckpointedWrites) =>
      this.commitWithinTransaction(batch.writes, batch.checkpoint),
    );
    const commitInSavepoints = this.db.transaction((batches: readonly CheckpointedWrites[]) =>
      batches.map((batch) => this.commitInSavepoint(commitOne, batch)),
    );
    const commitAll = (batches: readonly CheckpointedWrites[]): CommitOutcome[] => {
      try {
        return this.forgettingTablesOnFailure(() => commitChecked.immediate(batches));
      } catch (error) {
        // The lock was not had in time: trying again at once would only wait as long again.
        if (passesByItself(storageFailureOf(error))) throw error;
        return this.forgettingTablesOnFailure(() => commitInSavepoints.immediate(batches));
      }
    };
    this.commitAllTransaction = commitAll;
    const write = this.db.transaction((writes: readonly DocumentWrite[]) =>
      this.applyWrites(writes),
    );
    this.writeTransaction = (writes) =>
      this.forgettingTablesOnFailure(() => write.immediate(writes));
    const swap = this.db.transaction((collections: readonly string[], generation: string) =>
      this.swapWithinTransaction(collections, generation),
    );
    this.swapTransaction = (collections, generation) => swap.immediate(collections, generation);
  }

  async get<T extends Identified = Document>(
    collection: string,
    id: string,
  ): Promise<T | undefined> {
    const doc = this.read(
      collection,
      (_, table) => table.selectOne.get(id) as StoredRow | undefined,
      undefined,
    );
    return doc === undefined ? undefined : documentOf<T>(doc);
  }

  async getMany<T extends Identified = Document>(
    collection: string,
    ids: readonly string[],
  ): Promise<T[]> {
    const rows = this.read(
      collection,
      (_, table) => table.selectMany.all(JSON.stringify(ids)) as StoredRow[],
      [],
    );
    const byId = new Map(rows.map((row) => [row[0], row]));
    return ids.flatMap((id) => {
      const row = byId.get(id);
      return row === undefined ? [] : [documentOf<T>(row)];
    });
  }

  async find<T extends Identified = Document>(
    collection: string,
    filter?: Filter,
    options: FindOptions = {},
  ): Promise<T[]> {
    const rows = this.read<StoredRow[], ReturnType<typeof findSql>>(
      collection,
      (query) =>
        this.statement(query.sql)
          .raw()
          .all(...query.params) as StoredRow[],
      [],
      (physical) => findSql(tableSql(physical), filter, options),
    );
    return rows.map((row) => documentOf<T>(row));
  }

  /** The same query as `find`, reading each row's id and one field instead of its whole JSON. */
  async findVersions(
    collection: string,
    versionField: string,
    filter?: Filter,
    options: FindOptions = {},
  ): Promise<VersionedId[]> {
    const columns = versionColumnsSql(versionField);
    const rows = this.read<[id: string, version: unknown][], ReturnType<typeof findSql>>(
      collection,
      (query) =>
        this.statement(query.sql)
          .raw()
          .all(...query.params) as [string, unknown][],
      [],
      (physical) => findSql(tableSql(physical), filter, options, columns),
    );
    return rows.map(([id, version]) => ({ id, version: version ?? undefined }));
  }

  async count(collection: string, filter?: Filter): Promise<number> {
    const kept = this.keptCount(collection, filter);
    if (kept !== undefined) return kept;
    const where = whereSql(filter);
    return this.read(
      collection,
      (sql) =>
        this.statement(sql)
          .pluck()
          .get(...where.params) as number,
      0,
      (physical) => countSql(tableSql(physical), where.sql),
    );
  }

  /**
   * The count of the documents `filter` selects from the counts the collection keeps (see
   * `ensureCount`), or undefined when none of them covers the filter or the live table does
   * not keep them yet (a store written before, until its projection starts).
   */
  private keptCount(collection: string, filter: Filter | undefined): number | undefined {
    const kept = this.keptCountQuery(collection, filter);
    if (kept === undefined) return undefined;
    try {
      return this.statement(kept.sql)
        .pluck()
        .get(...kept.params) as number;
    } catch (error) {
      if (isMissingTable(error)) return undefined;
      throw error;
    }
  }

  private keptCountQuery(collection: string, filter: Filter | undefined): SqlWhere | undefined {
    for (const fields of this.tables.countedFields(collection)) {
      const where = keptCountWhere(fields, filter);
      if (where === undefined) continue;
      const counts = countsTableSql(this.physical(collection), fields);
      return {
        sql: `SELECT CAST(total(n) AS INTEGER) FROM ${counts}${where.sql}`,
        params: where.params,
      };
    }
    return undefined;
  }

  /**
   * SQLite's plan (EXPLAIN QUERY PLAN, one line a step) for the `find`, with `count` the count,
   * with `versionField` the `findVersions`, this store would run: how specs check that a listing
   * walks an index.
   */
  queryPlan(
    collection: string,
    filter?: Filter,
    options: FindOptions & { count?: boolean; versionField?: string } = {},
  ): string[] {
    const table = tableSql(this.physical(collection));
    const where = whereSql(filter);
    const query = options.count
      ? (this.keptCountQuery(collection, filter) ?? {
          sql: countSql(table, where.sql),
          params: where.params,
        })
      : findSql(
          table,
          filter,
          options,
          options.versionField === undefined ? undefined : versionColumnsSql(options.versionField),
        );
    return this.db
      .prepare(`EXPLAIN QUERY PLAN ${query.sql}`)
      .all(...query.params)
      .map((row) => (row as { detail: string }).detail);
  }

  async commit(writes: readonly DocumentWrite[], checkpoint: CheckpointMove): Promise<void> {
    this.commitTransaction(writes, checkpoint);
  }

  async commitAll(batches: readonly CheckpointedWrites[]): Promise<CommitOutcome[]> {
    if (batches.length === 0) return [];
    return this.commitAllTransaction(batches);
  }

  async write(writes: readonly DocumentWrite[]): Promise<void> {
    this.writeTransaction(writes);
  }

  async readCheckpoint(name: string): Promise<number | undefined> {
    return this.storedCheckpoint(name);
  }

  /** Declared for the logical name, and built on the table of its live generation. */
  async ensureIndex(
    collection: string,
    fields: readonly string[],
    options: IndexOptions = {},
  ): Promise<void> {
    if (fields.length === 0) return;
    this.db.transaction(() => {
      if (!isGenerationAddress(collection)) this.tables.declare(collection, fields, options);
      this.tables.ensure(this.physical(collection));
      this.tables.index(this.physical(collection), fields, options);
    })();
  }

  /** Declared for the logical name, and kept on the table of its live generation. */
  async ensureCount(collection: string, fields: readonly string[]): Promise<void> {
    if (fields.length === 0) return;
    this.db
      .transaction(() => {
        if (!isGenerationAddress(collection)) this.tables.declareCount(collection, fields);
        this.tables.ensure(this.physical(collection));
        this.tables.keepCounts(this.physical(collection), fields);
      })
      .immediate();
  }

  async dropIndex(
    collection: string,
    fields: readonly string[],
    options: IndexOptions = {},
  ): Promise<void> {
    this.db.transaction(() => {
      this.tables.undeclare(collection, fields, options);
      this.tables.dropIndex(this.physical(collection), fields, options);
    })();
  }

  /** Empty tables without indexes: loading a rebuild maintains nothing but the ids. */
  async prepareGeneration(collections: readonly string[]): Promise<string> {
    const generation = newGenerationId();
    const insert = this.db.prepare(
      'INSERT INTO prepared_generations (collection, generation) VALUES (?, ?)',
    );
    this.db.transaction(() => {
      for (const collection of collections) {
        insert.run(collection, generation);
        this.tables.ensure(generationCollection(collection, generation));
      }
    })();
    return generation;
  }

  async indexGeneration(collections: readonly string[], generation: string): Promise<void> {
    this.db.transaction(() => {
      for (const collection of collections) {
        this.tables.indexAsDeclared(generationCollection(collection, generation));
      }
    })();
  }

  async swap(collections: readonly string[], generation: string): Promise<void> {
    this.swapTransaction(collections, generation);
  }

  async discardPreparedGenerations(generation?: string): Promise<string[]> {
    const select = this.db.prepare(
      'SELECT collection, generation FROM prepared_generations' +
        (generation === undefined ? '' : ' WHERE generation = ?'),
    );
    const forget = this.db.prepare(
      'DELETE FROM prepared_generations WHERE collection = ? AND generation = ?',
    );
    const discard = this.db.transaction(() => {
      const prepared = (generation === undefined ? select.all() : select.all(generation)) as {
        collection: string;
        generation: string;
      }[];
      for (const row of prepared) {
        this.tables.drop(generationCollection(row.collection, row.generation));
        forget.run(row.collection, row.generation);
      }
      return [...new Set(prepared.map((row) => row.generation))];
    });
    return this.forgettingTablesOnFailure(() => discard.immediate());
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }

  private swapWithinTransaction(collections: readonly string[], generation: string): void {
    const forget = this.db.prepare(
      'DELETE FROM prepared_generations WHERE collection = ? AND generation = ?',
    );
    const setAlias = this.db.prepare(
      'INSERT INTO collection_aliases (logical, physical) VALUES (?, ?) ' +
        'ON CONFLICT (logical) DO UPDATE SET physical = excluded.physical',
    );
    for (const collection of collections) {
      if (forget.run(collection, generation).changes === 0) {
        throw new Error(`generation ${generation} of ${collection} was not prepared`);
      }
      const old = this.physical(collection);
      const next = generationCollection(collection, generation);
      this.tables.ensure(next);
      this.tables.indexAsDeclared(next);
      setAlias.run(collection, next);
      this.tables.drop(old);
    }
  }

  private commitWithinTransaction(
    writes: readonly DocumentWrite[],
    checkpoint: CheckpointMove,
  ): void {
    if (!this.movedCheckpoint(checkpoint)) throw this.conflictOf(checkpoint);
    this.applyWrites(writes);
  }

  /** One batch of several, refused without writing anything when its checkpoint has moved. */
  private commitUnlessRefused(batch: CheckpointedWrites): CommitOutcome {
    if (!this.movedCheckpoint(batch.checkpoint)) {
      return { ok: false, error: this.conflictOf(batch.checkpoint) };
    }
    this.applyWrites(batch.writes);
    return { ok: true };
  }

  /**
   * Moves the checkpoint on from the position the batch expects, before the batch's writes (all
   * in one transaction): false, with nothing written, when another writer moved it.
   */
  private movedCheckpoint({ name, expectedPosition, position }: CheckpointMove): boolean {
    const moved =
      expectedPosition === undefined
        ? this.insertCheckpoint.run(name, position)
        : this.moveCheckpoint.run(position, name, expectedPosition);
    return moved.changes === 1;
  }

  private conflictOf({ name, expectedPosition }: CheckpointMove): CheckpointConflictError {
    return new CheckpointConflictError(name, expectedPosition, this.storedCheckpoint(name));
  }

  /**
   * One batch of several: its failure is its own, unless SQLite ended the whole transaction
   * (a full disk, an I/O error), which then fails them all rather than let the batches after
   * it run outside a transaction.
   */
  private commitInSavepoint(
    commitOne: (batch: CheckpointedWrites) => void,
    batch: CheckpointedWrites,
  ): CommitOutcome {
    try {
      commitOne(batch);
      return { ok: true };
    } catch (error) {
      if (!this.db.inTransaction) throw error;
      this.tables.forgetAll();
      return { ok: false, error };
    }
  }

  /** Runs a transaction; when it fails, the tables it may have created are gone again. */
  private forgettingTablesOnFailure<T>(transaction: () => T): T {
    try {
      return transaction();
    } catch (error) {
      this.tables.forgetAll();
      throw error;
    }
  }

  private applyWrites(writes: readonly DocumentWrite[]): void {
    const schemaVersion = this.tables.schemaVersion();
    const tables = new Map<string, TableStatements>();
    const tableOf = (collection: string): TableStatements => {
      let table = tables.get(collection);
      if (table === undefined) {
        table = this.tables.ensure(this.physical(collection), schemaVersion);
        tables.set(collection, table);
      }
      return table;
    };
    const moves = new CountMoves();
    for (const write of writes) {
      const id = write.kind === 'put' ? write.document.id : write.id;
      if (typeof id !== 'string') {
        throw new Error(`a document of ${write.collection} has no string id`);
      }
      const table = tableOf(write.collection);
      const before = table.kept?.read.get(id) as unknown[] | undefined;
      if (write.kind === 'put') table.upsert.run(id, storedText(write.document));
      else table.remove.run(id);
      if (table.kept !== undefined) {
        const after = write.kind === 'put' ? (table.kept.read.get(id) as unknown[]) : undefined;
        moves.record(table.kept, before, after);
      }
    }
    moves.flush();
  }

  /**
   * Runs a read on the collection's live table, through the physical name this process last
   * found for it: a swap drops the table it replaces in the transaction that moves the alias,
   * so a remembered table that still exists is the live one, and a read that finds it gone
   * (swapped, possibly by another process) looks the alias up again. Writes always look it up:
   * a table is created on write, and a stale name would bring a dropped generation back.
   */
  private read<T, Plan = string>(
    collection: string,
    run: (plan: Plan, table: TableStatements) => T,
    empty: T,
    plan: (physical: string) => Plan = (physical) => physical as Plan,
  ): T {
    const remembered = this.aliases.get(collection);
    if (remembered !== undefined) {
      const planned = plan(remembered);
      const found = this.tables.readIfPresent(remembered, (table) => run(planned, table));
      if (found !== undefined) return found.value;
      this.aliases.delete(collection);
    }
    const physical = this.physical(collection);
    // Planned before the table is looked for, so a bad filter fails on an empty collection too.
    const planned = plan(physical);
    const found = this.tables.readIfPresent(physical, (table) => run(planned, table));
    if (found === undefined) return empty;
    if (!isGenerationAddress(collection)) this.aliases.set(collection, physical);
    return found.value;
  }

  private physical(collection: string): string {
    if (isGenerationAddress(collection)) return collection;
    return (this.selectAlias.get(collection) as string | undefined) ?? collection;
  }

  private storedCheckpoint(name: string): number | undefined {
    return this.selectCheckpoint.get(name) as number | undefined;
  }

  private statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      if (this.statements.size >= MAX_CACHED_STATEMENTS) this.statements.clear();
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}

/** What `findVersions` selects: each document's id and the value of its version field. */
const versionColumnsSql = (versionField: string): string => `id, ${valueSql(versionField)}`;
