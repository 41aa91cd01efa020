import Database from 'better-sqlite3';
import {
  CheckpointConflictError,
  type Checkpoint,
  type Document,
  type Identified,
  type DocumentStore,
  type DocumentWrite,
  type Filter,
  type FindOptions,
} from '../document-store.port.js';
import { generationCollection, isGenerationAddress, newGenerationId } from '../generation-id.js';
import { findSql, valueSql, whereSql } from './sqlite-filter.js';

export interface SqliteDocumentStoreOptions {
  /** Path of the database file, or ':memory:'. */
  readonly file: string;
}

const BUSY_TIMEOUT_MS = 5_000;
/** Distinct find shapes kept prepared; a projection's queries have few shapes. */
const MAX_CACHED_STATEMENTS = 500;

/**
 * Read-model documents in one SQLite file (WAL): one table keyed by physical collection and
 * id, documents as JSON text queried with json_extract. Logical names map to physical
 * generations through `collection_aliases`; a name never swapped is its own physical name.
 * better-sqlite3 is synchronous, so each method has done its work when its promise is made.
 */
export class SqliteDocumentStore implements DocumentStore {
  private readonly db: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();
  private readonly selectAlias: Database.Statement;
  private readonly selectDocument: Database.Statement;
  private readonly selectDocuments: Database.Statement;
  private readonly upsertDocument: Database.Statement;
  private readonly deleteDocument: Database.Statement;
  private readonly selectCheckpoint: Database.Statement;
  private readonly upsertCheckpoint: Database.Statement;
  private readonly commitTransaction: (
    writes: readonly DocumentWrite[],
    checkpoint: Checkpoint & { expectedPosition: number | undefined },
  ) => void;
  private readonly writeTransaction: (writes: readonly DocumentWrite[]) => void;
  private readonly swapTransaction: (collections: readonly string[], generation: string) => void;

  constructor(options: SqliteDocumentStoreOptions) {
    this.db = new Database(options.file);
    this.db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    // Listings and rebuilds walk tens of MB of documents; the default 2 MB cache thrashes.
    this.db.pragma('cache_size = -65536');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS documents (
        collection TEXT NOT NULL,
        id         TEXT NOT NULL,
        doc        TEXT NOT NULL,
        PRIMARY KEY (collection, id)
      );
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
    this.selectAlias = this.db
      .prepare('SELECT physical FROM collection_aliases WHERE logical = ?')
      .pluck();
    this.selectDocument = this.db
      .prepare('SELECT doc FROM documents WHERE collection = ? AND id = ?')
      .pluck();
    this.selectDocuments = this.db
      .prepare(
        'SELECT doc FROM documents WHERE collection = ? AND id IN (SELECT value FROM json_each(?))',
      )
      .pluck();
    this.upsertDocument = this.db.prepare(
      'INSERT INTO documents (collection, id, doc) VALUES (?, ?, ?) ' +
        'ON CONFLICT (collection, id) DO UPDATE SET doc = excluded.doc',
    );
    this.deleteDocument = this.db.prepare('DELETE FROM documents WHERE collection = ? AND id = ?');
    this.selectCheckpoint = this.db
      .prepare('SELECT position FROM checkpoints WHERE name = ?')
      .pluck();
    this.upsertCheckpoint = this.db.prepare(
      'INSERT INTO checkpoints (name, position) VALUES (?, ?) ' +
        'ON CONFLICT (name) DO UPDATE SET position = excluded.position',
    );

    // IMMEDIATE takes the write lock before the checkpoint is read, so the compare-and-set
    // holds against other processes writing the same file.
    const commit = this.db.transaction(
      (
        writes: readonly DocumentWrite[],
        checkpoint: Checkpoint & { expectedPosition: number | undefined },
      ) => {
        const actual = this.storedCheckpoint(checkpoint.name);
        if (actual !== checkpoint.expectedPosition) {
          throw new CheckpointConflictError(checkpoint.name, checkpoint.expectedPosition, actual);
        }
        this.applyWrites(writes);
        this.upsertCheckpoint.run(checkpoint.name, checkpoint.position);
      },
    );
    this.commitTransaction = (writes, checkpoint) => commit.immediate(writes, checkpoint);
    const write = this.db.transaction((writes: readonly DocumentWrite[]) =>
      this.applyWrites(writes),
    );
    this.writeTransaction = (writes) => write.immediate(writes);
    const swap = this.db.transaction((collections: readonly string[], generation: string) =>
      this.swapWithinTransaction(collections, generation),
    );
    this.swapTransaction = (collections, generation) => swap.immediate(collections, generation);
  }

  async get<T extends Identified = Document>(
    collection: string,
    id: string,
  ): Promise<T | undefined> {
    const doc = this.selectDocument.get(this.physical(collection), id) as string | undefined;
    return doc === undefined ? undefined : (JSON.parse(doc) as T);
  }

  async getMany<T extends Identified = Document>(
    collection: string,
    ids: readonly string[],
  ): Promise<T[]> {
    const rows = this.selectDocuments.all(
      this.physical(collection),
      JSON.stringify(ids),
    ) as string[];
    const byId = new Map(rows.map((row) => JSON.parse(row) as T).map((doc) => [doc.id, doc]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  async find<T extends Identified = Document>(
    collection: string,
    filter?: Filter,
    options: FindOptions = {},
  ): Promise<T[]> {
    const query = findSql(this.physical(collection), filter, options);
    const rows = this.statement(query.sql)
      .pluck()
      .all(...query.params) as string[];
    return rows.map((row) => JSON.parse(row) as T);
  }

  async count(collection: string, filter?: Filter): Promise<number> {
    const where = whereSql(filter);
    const sql = `SELECT COUNT(*) FROM documents WHERE collection = ?${where.sql}`;
    return this.statement(sql)
      .pluck()
      .get(this.physical(collection), ...where.params) as number;
  }

  async commit(
    writes: readonly DocumentWrite[],
    checkpoint: Checkpoint & { expectedPosition: number | undefined },
  ): Promise<void> {
    this.commitTransaction(writes, checkpoint);
  }

  async write(writes: readonly DocumentWrite[]): Promise<void> {
    this.writeTransaction(writes);
  }

  async readCheckpoint(name: string): Promise<number | undefined> {
    return this.storedCheckpoint(name);
  }

  /**
   * One expression index over the whole table, led by the collection, so it serves every
   * collection and generation that filters and sorts on these fields.
   */
  async ensureIndex(_collection: string, fields: readonly string[]): Promise<void> {
    if (fields.length === 0) return;
    const expressions = fields.map(valueSql);
    const name = `documents_by_${fields.join('__').replaceAll('.', '_')}`;
    this.db.exec(
      `CREATE INDEX IF NOT EXISTS "${name}" ON documents (collection, ${expressions.join(', ')})`,
    );
  }

  async prepareGeneration(collections: readonly string[]): Promise<string> {
    const generation = newGenerationId();
    const insert = this.db.prepare(
      'INSERT INTO prepared_generations (collection, generation) VALUES (?, ?)',
    );
    this.db.transaction(() => {
      for (const collection of collections) insert.run(collection, generation);
    })();
    return generation;
  }

  async swap(collections: readonly string[], generation: string): Promise<void> {
    this.swapTransaction(collections, generation);
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
    const dropCollection = this.db.prepare('DELETE FROM documents WHERE collection = ?');
    for (const collection of collections) {
      if (forget.run(collection, generation).changes === 0) {
        throw new Error(`generation ${generation} of ${collection} was not prepared`);
      }
      const old = this.physical(collection);
      setAlias.run(collection, generationCollection(collection, generation));
      dropCollection.run(old);
    }
  }

  private applyWrites(writes: readonly DocumentWrite[]): void {
    const physical = new Map<string, string>();
    const resolve = (collection: string): string => {
      let name = physical.get(collection);
      if (name === undefined) {
        name = this.physical(collection);
        physical.set(collection, name);
      }
      return name;
    };
    for (const write of writes) {
      if (write.kind === 'put') {
        if (typeof write.document.id !== 'string') {
          throw new Error(`a document of ${write.collection} has no string id`);
        }
        this.upsertDocument.run(
          resolve(write.collection),
          write.document.id,
          JSON.stringify(write.document),
        );
      } else {
        this.deleteDocument.run(resolve(write.collection), write.id);
      }
    }
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
