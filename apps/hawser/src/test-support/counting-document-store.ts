import type {
  CheckpointMove,
  CheckpointedWrites,
  CommitOutcome,
  Document,
  DocumentStore,
  DocumentWrite,
  Filter,
  FindOptions,
  Identified,
  IndexOptions,
  VersionedId,
} from '#hawser/read-models';

/** One read the store answered. */
export interface CountedRead {
  readonly method: 'get' | 'getMany' | 'find' | 'findVersions' | 'count';
  readonly collection: string;
}

/**
 * A real document store with a tally of the reads it answers: every call goes to the store
 * underneath unchanged. Tests use it to show how many read-model queries a request costs.
 */
export class CountingDocumentStore implements DocumentStore {
  readonly reads: CountedRead[] = [];

  constructor(private readonly real: DocumentStore) {}

  get<T extends Identified = Document>(collection: string, id: string): Promise<T | undefined> {
    this.reads.push({ method: 'get', collection });
    return this.real.get<T>(collection, id);
  }

  getMany<T extends Identified = Document>(
    collection: string,
    ids: readonly string[],
  ): Promise<T[]> {
    this.reads.push({ method: 'getMany', collection });
    return this.real.getMany<T>(collection, ids);
  }

  find<T extends Identified = Document>(
    collection: string,
    filter?: Filter,
    options?: FindOptions,
  ): Promise<T[]> {
    this.reads.push({ method: 'find', collection });
    return this.real.find<T>(collection, filter, options);
  }

  findVersions(
    collection: string,
    versionField: string,
    filter?: Filter,
    options?: FindOptions,
  ): Promise<VersionedId[]> {
    this.reads.push({ method: 'findVersions', collection });
    return this.real.findVersions(collection, versionField, filter, options);
  }

  count(collection: string, filter?: Filter): Promise<number> {
    this.reads.push({ method: 'count', collection });
    return this.real.count(collection, filter);
  }

  commit(writes: readonly DocumentWrite[], checkpoint: CheckpointMove): Promise<void> {
    return this.real.commit(writes, checkpoint);
  }

  commitAll(batches: readonly CheckpointedWrites[]): Promise<CommitOutcome[]> {
    return this.real.commitAll(batches);
  }

  write(writes: readonly DocumentWrite[]): Promise<void> {
    return this.real.write(writes);
  }

  readCheckpoint(name: string): Promise<number | undefined> {
    return this.real.readCheckpoint(name);
  }

  ensureIndex(
    collection: string,
    fields: readonly string[],
    options?: IndexOptions,
  ): Promise<void> {
    return this.real.ensureIndex(collection, fields, options);
  }

  ensureCount(collection: string, fields: readonly string[]): Promise<void> {
    return this.real.ensureCount(collection, fields);
  }

  dropIndex(collection: string, fields: readonly string[], options?: IndexOptions): Promise<void> {
    return this.real.dropIndex(collection, fields, options);
  }

  prepareGeneration(collections: readonly string[]): Promise<string> {
    return this.real.prepareGeneration(collections);
  }

  indexGeneration(collections: readonly string[], generation: string): Promise<void> {
    return this.real.indexGeneration(collections, generation);
  }

  swap(collections: readonly string[], generation: string): Promise<void> {
    return this.real.swap(collections, generation);
  }

  discardPreparedGenerations(generation?: string): Promise<string[]> {
    return this.real.discardPreparedGenerations(generation);
  }

  close(): Promise<void> {
    return this.real.close();
  }
}
