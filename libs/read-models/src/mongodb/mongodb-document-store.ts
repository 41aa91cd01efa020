import {
  MongoClient,
  MongoServerError,
  type AnyBulkWriteOperation,
  type ClientSession,
  type Collection,
  type Db,
} from 'mongodb';
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
import { fieldValue } from '../field-name.js';
import { generationCollection, isGenerationAddress, newGenerationId } from '../generation-id.js';
import { mongoField, mongoFilter, mongoSort } from './mongodb-filter.js';

export interface MongoDbDocumentStoreOptions {
  /** A MongoDB connection string; the client connects on first use. */
  readonly url: string;
  /** Database name; default: the one in the URL, else `hawser`. */
  readonly database?: string;
}

/** A document as stored: its id doubles as `_id`. */
interface StoredDocument {
  _id: string;
  [key: string]: unknown;
}
interface AliasRecord {
  _id: string;
  physical: string;
}
interface CheckpointRecord {
  _id: string;
  position: number;
}
interface IndexRecord {
  _id: string;
  collection: string;
  fields: string[];
  sparse?: boolean;
  sparseOn?: string;
}

const ALIASES = 'hawser_collection_aliases';
const CHECKPOINTS = 'hawser_checkpoints';
const INDEXES = 'hawser_indexes';
const DUPLICATE_KEY = 11000;
const WITHOUT_ID = { projection: { _id: 0 } } as const;

/**
 * Read-model documents in MongoDB: one collection per physical name (`shares`,
 * `shares@<generation>`), plus collections for aliases, checkpoints and declared indexes.
 * On a replica set or sharded cluster a commit is one transaction; on a standalone server it
 * checks the checkpoint, writes, then moves the checkpoint with a compare-and-set, so a batch
 * replayed after a crash in between rewrites the same documents (the port's idempotence).
 */
export class MongoDbDocumentStore implements DocumentStore {
  private readonly client: MongoClient;
  private readonly db: Db;
  private transactions: Promise<boolean> | undefined;

  constructor(options: MongoDbDocumentStoreOptions) {
    this.client = new MongoClient(options.url);
    this.db = this.client.db(options.database ?? databaseInUrl(options.url) ?? 'hawser');
  }

  async get<T extends Identified = Document>(
    collection: string,
    id: string,
  ): Promise<T | undefined> {
    const documents = await this.documents(collection);
    return ((await documents.findOne({ _id: id }, WITHOUT_ID)) ?? undefined) as T | undefined;
  }

  async getMany<T extends Identified = Document>(
    collection: string,
    ids: readonly string[],
  ): Promise<T[]> {
    const documents = await this.documents(collection);
    const found = (await documents
      .find({ _id: { $in: [...ids] } }, WITHOUT_ID)
      .toArray()) as unknown as T[];
    const byId = new Map(found.map((doc) => [doc.id, doc]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  async find<T extends Identified = Document>(
    collection: string,
    filter?: Filter,
    options: FindOptions = {},
  ): Promise<T[]> {
    const cursor = await this.cursor(collection, filter, options, WITHOUT_ID.projection);
    return (await cursor.toArray()) as unknown as T[];
  }

  /** The same query as `find`, projected on the id and the version field. */
  async findVersions(
    collection: string,
    versionField: string,
    filter?: Filter,
    options: FindOptions = {},
  ): Promise<VersionedId[]> {
    const projection: Record<string, 0 | 1> = { _id: 1, [mongoField(versionField)]: 1 };
    const found = await (await this.cursor(collection, filter, options, projection)).toArray();
    return found.map((stored) => ({
      id: stored._id,
      version: fieldValue(stored, versionField) ?? undefined,
    }));
  }

  private async cursor(
    collection: string,
    filter: Filter | undefined,
    options: FindOptions,
    projection: Record<string, 0 | 1>,
  ) {
    const documents = await this.documents(collection);
    let cursor = documents.find(mongoFilter(filter), { projection }).sort(mongoSort(options.sort));
    // Past what the driver sends as an integer, a limit or offset means "all" or "none" anyway.
    if (options.skip !== undefined) {
      cursor = cursor.skip(Math.min(options.skip, Number.MAX_SAFE_INTEGER));
    }
    if (options.limit !== undefined) {
      cursor = cursor.limit(Math.min(options.limit, Number.MAX_SAFE_INTEGER));
    }
    return cursor;
  }

  async count(collection: string, filter?: Filter): Promise<number> {
    const documents = await this.documents(collection);
    return documents.countDocuments(mongoFilter(filter));
  }

  async commit(writes: readonly DocumentWrite[], checkpoint: CheckpointMove): Promise<void> {
    await this.inTransactionIfSupported(async (session) => {
      const checkpoints = this.db.collection<CheckpointRecord>(CHECKPOINTS);
      const stored = await checkpoints.findOne({ _id: checkpoint.name }, { session });
      if (stored?.position !== checkpoint.expectedPosition) {
        throw new CheckpointConflictError(
          checkpoint.name,
          checkpoint.expectedPosition,
          stored?.position,
        );
      }
      await this.applyWrites(writes, session);
      await this.moveCheckpoint(checkpoints, checkpoint, session);
    });
  }

  /**
   * One commit per batch, in order: a MongoDB transaction has no savepoints, so one failing
   * batch would abort the others' writes; each batch stays atomic (a transaction of its own)
   * or idempotent (a standalone server), as `commit` is.
   */
  async commitAll(batches: readonly CheckpointedWrites[]): Promise<CommitOutcome[]> {
    const outcomes: CommitOutcome[] = [];
    for (const batch of batches) {
      try {
        await this.commit(batch.writes, batch.checkpoint);
        outcomes.push({ ok: true });
      } catch (error) {
        outcomes.push({ ok: false, error });
      }
    }
    return outcomes;
  }

  async write(writes: readonly DocumentWrite[]): Promise<void> {
    await this.inTransactionIfSupported((session) => this.applyWrites(writes, session));
  }

  async readCheckpoint(name: string): Promise<number | undefined> {
    const stored = await this.db.collection<CheckpointRecord>(CHECKPOINTS).findOne({ _id: name });
    return stored?.position;
  }

  /** Records the index so later generations get it too, and builds it on the live one. */
  async ensureIndex(
    collection: string,
    fields: readonly string[],
    options: IndexOptions = {},
  ): Promise<void> {
    if (fields.length === 0) return;
    await this.db.collection<IndexRecord>(INDEXES).updateOne(
      { _id: indexRecordId(collection, fields, options) },
      {
        $set: {
          collection,
          fields: [...fields],
          sparse: options.sparse === true,
          ...(options.sparseOn !== undefined && { sparseOn: options.sparseOn }),
        },
      },
      { upsert: true },
    );
    await this.buildIndex(await this.physical(collection), fields, options);
  }

  /**
   * Nothing is kept: a count here walks its index (`ensureIndex`). Counts moved by each write
   * would need the document each put replaces read first, and on a standalone server (no
   * transactions) a batch replayed after a crash would count its documents twice.
   */
  async ensureCount(): Promise<void> {}

  async dropIndex(
    collection: string,
    fields: readonly string[],
    options: IndexOptions = {},
  ): Promise<void> {
    await this.db
      .collection<IndexRecord>(INDEXES)
      .deleteOne({ _id: indexRecordId(collection, fields, options) });
    const physical = this.db.collection(await this.physical(collection));
    const name = indexName(fields, options);
    if (await physical.indexExists(name).catch(() => false)) await physical.dropIndex(name);
  }

  async prepareGeneration(collections: readonly string[]): Promise<string> {
    const generation = newGenerationId();
    for (const collection of collections) {
      await this.db.createCollection(generationCollection(collection, generation));
    }
    return generation;
  }

  async indexGeneration(collections: readonly string[], generation: string): Promise<void> {
    const indexes = await this.db
      .collection<IndexRecord>(INDEXES)
      .find({ collection: { $in: [...collections] } })
      .toArray();
    for (const index of indexes) {
      await this.buildIndex(generationCollection(index.collection, generation), index.fields, {
        sparse: index.sparse === true,
        ...(index.sparseOn !== undefined && { sparseOn: index.sparseOn }),
      });
    }
  }

  async swap(collections: readonly string[], generation: string): Promise<void> {
    const targets = collections.map((collection) => generationCollection(collection, generation));
    const existing = await this.db
      .listCollections({ name: { $in: targets } }, { nameOnly: true })
      .toArray();
    const missing = targets.filter((name) => !existing.some((found) => found.name === name));
    if (missing.length > 0) {
      throw new Error(`generation ${generation} was not prepared: ${missing.join(', ')}`);
    }
    await this.indexGeneration(collections, generation);
    const old = await Promise.all(collections.map((collection) => this.physical(collection)));
    await this.inTransactionIfSupported(async (session) => {
      await this.db.collection<AliasRecord>(ALIASES).bulkWrite(
        collections.map((collection, index) => ({
          updateOne: {
            filter: { _id: collection },
            update: { $set: { physical: targets[index] as string } },
            upsert: true,
          },
        })),
        { session },
      );
    });
    for (const name of old) await this.db.dropCollection(name).catch(ignoreMissingCollection);
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  private async applyWrites(
    writes: readonly DocumentWrite[],
    session: ClientSession | undefined,
  ): Promise<void> {
    const byCollection = new Map<string, AnyBulkWriteOperation<StoredDocument>[]>();
    for (const write of writes) {
      const operations = byCollection.get(write.collection) ?? [];
      byCollection.set(write.collection, operations);
      if (write.kind === 'put') {
        const { document } = write;
        if (typeof document.id !== 'string') {
          throw new Error(`a document of ${write.collection} has no string id`);
        }
        operations.push({
          replaceOne: { filter: { _id: document.id }, replacement: { ...document }, upsert: true },
        });
      } else {
        operations.push({ deleteOne: { filter: { _id: write.id } } });
      }
    }
    for (const [collection, operations] of byCollection) {
      const documents = await this.documents(collection, session);
      await documents.bulkWrite(operations, { ordered: true, session });
    }
  }

  private async moveCheckpoint(
    checkpoints: Collection<CheckpointRecord>,
    checkpoint: CheckpointMove,
    session: ClientSession | undefined,
  ): Promise<void> {
    const conflict = async () =>
      new CheckpointConflictError(
        checkpoint.name,
        checkpoint.expectedPosition,
        (await checkpoints.findOne({ _id: checkpoint.name }, { session }))?.position,
      );
    if (checkpoint.expectedPosition === undefined) {
      try {
        await checkpoints.insertOne(
          { _id: checkpoint.name, position: checkpoint.position },
          { session },
        );
      } catch (error) {
        if (error instanceof MongoServerError && error.code === DUPLICATE_KEY)
          throw await conflict();
        throw error;
      }
      return;
    }
    const moved = await checkpoints.findOneAndUpdate(
      { _id: checkpoint.name, position: checkpoint.expectedPosition },
      { $set: { position: checkpoint.position } },
      { session },
    );
    if (moved === null) throw await conflict();
  }

  private async documents(
    collection: string,
    session?: ClientSession,
  ): Promise<Collection<StoredDocument>> {
    return this.db.collection<StoredDocument>(await this.physical(collection, session));
  }

  /**
   * A generation's collections no alias points at: prepared and never swapped in, or replaced
   * by a swap whose process died before it dropped them.
   */
  async discardPreparedGenerations(generation?: string): Promise<string[]> {
    const live = new Set(
      (await this.db.collection<AliasRecord>(ALIASES).find().toArray()).map(
        (alias) => alias.physical,
      ),
    );
    const discarded = new Set<string>();
    for (const { name } of await this.db.listCollections({}, { nameOnly: true }).toArray()) {
      if (!isGenerationAddress(name) || live.has(name)) continue;
      const of = name.slice(name.indexOf('@') + 1);
      if (generation !== undefined && of !== generation) continue;
      await this.db.dropCollection(name).catch(ignoreMissingCollection);
      discarded.add(of);
    }
    return [...discarded];
  }

  private async physical(collection: string, session?: ClientSession): Promise<string> {
    if (isGenerationAddress(collection)) return collection;
    // Read on every call: another process may have swapped the collection since.
    const alias = await this.db
      .collection<AliasRecord>(ALIASES)
      .findOne({ _id: collection }, { session });
    return alias?.physical ?? collection;
  }

  private async buildIndex(
    physical: string,
    fields: readonly string[],
    options: IndexOptions,
  ): Promise<void> {
    const present = mongoField(options.sparseOn ?? (fields[0] as string));
    await this.db.collection(physical).createIndex(indexKeys(fields), {
      name: indexName(fields, options),
      // Equality and `$in` on the field imply `$exists`, so the planner can use it for them.
      ...(options.sparse ? { partialFilterExpression: { [present]: { $exists: true } } } : {}),
    });
  }

  private async inTransactionIfSupported(
    work: (session: ClientSession | undefined) => Promise<void>,
  ): Promise<void> {
    if (!(await this.supportsTransactions())) {
      await work(undefined);
      return;
    }
    const session = this.client.startSession();
    try {
      await session.withTransaction(() => work(session));
    } finally {
      await session.endSession();
    }
  }

  /** Transactions need a replica set member or a mongos; a standalone server has neither. */
  private supportsTransactions(): Promise<boolean> {
    this.transactions ??= this.db
      .command({ hello: 1 })
      .then((hello) => typeof hello['setName'] === 'string' || hello['msg'] === 'isdbgrid');
    return this.transactions;
  }
}

function databaseInUrl(url: string): string | undefined {
  try {
    const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
    return name === '' ? undefined : name;
  } catch {
    return undefined;
  }
}

function ignoreMissingCollection(error: unknown): void {
  if (error instanceof MongoServerError && error.codeName === 'NamespaceNotFound') return;
  throw error;
}

/** An index's keys: the fields, then `_id` (the tie-breaker every listing sorts on last). */
const indexKeys = (fields: readonly string[]): [string, 1][] => {
  const keys = fields.map((field): [string, 1] => [mongoField(field), 1]);
  if (!keys.some(([field]) => field === '_id')) keys.push(['_id', 1]);
  return keys;
};

/** The name MongoDB would give the keys (each and its direction, joined by underscores). */
const indexName = (fields: readonly string[], options: IndexOptions): string =>
  indexKeys(fields)
    .map(([field, direction]) => `${field}_${direction}`)
    .join('_') + sparseSuffix(options, '_');

const indexRecordId = (
  collection: string,
  fields: readonly string[],
  options: IndexOptions,
): string => `${collection}|${fields.join(',')}${sparseSuffix(options, '|')}`;

/** What tells a sparse index apart in its name: `sparse`, and the field it is sparse on. */
const sparseSuffix = (options: IndexOptions, separator: string): string =>
  !options.sparse
    ? ''
    : `${separator}sparse${options.sparseOn === undefined ? '' : `${separator}on${separator}${options.sparseOn}`}`;
