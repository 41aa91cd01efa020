/**
 * The read-model document store port: SQLite documents for the embedded default, MongoDB in
 * production. Every adapter passes `document-store.contract.ts`.
 *
 * Documents are plain JSON objects with a string `id`. Collections are logical names; the
 * store maps each to a physical collection so a projection can be rebuilt into fresh
 * collections and swapped in atomically (`swap`).
 *
 * A collection name of the form `name@generation` addresses that generation's physical
 * collection directly (a rebuild writes there); a plain name addresses the live generation.
 *
 * Idempotence: a put replaces the whole document. Projections whose documents reflect one
 * stream keep that stream's `revision` in the document and skip events at or below it, so a
 * batch replayed after a crash between the writes and the checkpoint (MongoDB) changes nothing.
 */
export interface Document {
  id: string;
  [key: string]: unknown;
}

/**
 * What reads may be typed as and puts accept: any object with a string id, including
 * interfaces without an index signature (`Document` keeps literals free of excess-property errors).
 */
export type Identified = Document | { readonly id: string };

/**
 * Equality on (dotted) fields, or one of a few operators per field. Equality with null, `$in`
 * holding null and `$ne` also consider a missing field (as MongoDB does). `$like` is an SQL LIKE
 * pattern (`%` any run, `_` one character), case-insensitive for ASCII letters. Field names
 * are letters, digits and underscores, dotted for nested fields. Arrays compare as whole values.
 */
export type FieldCondition =
  | string
  | number
  | boolean
  | null
  | { $in: readonly (string | number | boolean | null)[] }
  | { $ne: string | number | boolean | null }
  | { $gt: string | number }
  | { $gte: string | number }
  | { $lt: string | number }
  | { $lte: string | number }
  | { $like: string }
  | { $exists: boolean };

export type Filter = Record<string, FieldCondition>;

export interface FindOptions {
  /** Sort keys with 1 (ascending) or -1 (descending), applied in order; ties go by `id`. */
  sort?: readonly (readonly [field: string, order: 1 | -1])[];
  limit?: number;
  skip?: number;
}

/** A document's id and the value of one of its fields (its version), as `findVersions` lists it. */
export interface VersionedId {
  readonly id: string;
  /** The field's value, undefined when the document has none (or null). */
  readonly version: unknown;
}

/** One write of a projection batch. */
export type DocumentWrite =
  | { kind: 'put'; collection: string; document: Identified }
  | { kind: 'delete'; collection: string; id: string };

export interface Checkpoint {
  name: string;
  position: number;
}

/** A checkpoint to move with a compare-and-set: `expectedPosition` is where it must be now. */
export type CheckpointMove = Checkpoint & { expectedPosition: number | undefined };

/** One projection's batch: its writes and the checkpoint they move. */
export interface CheckpointedWrites {
  readonly writes: readonly DocumentWrite[];
  readonly checkpoint: CheckpointMove;
}

/** What became of one batch of several committed together. */
export type CommitOutcome = { readonly ok: true } | { readonly ok: false; readonly error: unknown };

export interface DocumentStore {
  get<T extends Identified = Document>(collection: string, id: string): Promise<T | undefined>;
  /** The documents of `ids` that exist, in the order of `ids`. */
  getMany<T extends Identified = Document>(
    collection: string,
    ids: readonly string[],
  ): Promise<T[]>;
  find<T extends Identified = Document>(
    collection: string,
    filter?: Filter,
    options?: FindOptions,
  ): Promise<T[]>;
  count(collection: string, filter?: Filter): Promise<number>;
  /**
   * The ids of the documents `find` would return, in the same order, each with the value of
   * `versionField` (a scalar, such as a projection's `revision`): for a reader that keeps what
   * it derived from a document by its version, and reads whole only the documents it lacks.
   */
  findVersions(
    collection: string,
    versionField: string,
    filter?: Filter,
    options?: FindOptions,
  ): Promise<VersionedId[]>;

  /**
   * Applies the writes and moves the named checkpoint to `checkpoint.position` as one unit:
   * atomically (SQLite) or idempotently so a replayed batch leaves the same result (MongoDB).
   * Fails with CheckpointConflictError when the stored checkpoint is not `expectedPosition`
   * (another runner moved it), writing nothing.
   */
  commit(writes: readonly DocumentWrite[], checkpoint: CheckpointMove): Promise<void>;
  /**
   * Commits several batches, each as `commit` would (its own compare-and-set, its writes with
   * its checkpoint), each with its own outcome: a batch that fails takes back only its own
   * writes. SQLite: one transaction, a savepoint per batch. MongoDB: one `commit` per batch.
   * Throws, committing nothing, when the whole fails (a full disk, an I/O error).
   */
  commitAll(batches: readonly CheckpointedWrites[]): Promise<CommitOutcome[]>;
  /** Writes outside any projection (admin data, parked events). */
  write(writes: readonly DocumentWrite[]): Promise<void>;

  readCheckpoint(name: string): Promise<number | undefined>;

  /**
   * Makes finds on a logical collection that filter on the leading fields by equality and sort
   * on the next ones fast, in every generation (present and future). Idempotent.
   */
  ensureIndex(collection: string, fields: readonly string[], options?: IndexOptions): Promise<void>;

  /**
   * Keeps a count of a logical collection's documents per value of `fields`, in every
   * generation (present and future), so that a `count` whose filter compares only those fields,
   * with text or null, answers without walking the documents. Idempotent. SQLite keeps them
   * with the documents' writes; MongoDB counts on its indexes (see the README, "Scale").
   */
  ensureCount(collection: string, fields: readonly string[]): Promise<void>;

  /**
   * Forgets an index `ensureIndex` declared and drops it from the live generation, so a store
   * written before stops keeping an index no longer declared. Idempotent.
   */
  dropIndex(collection: string, fields: readonly string[], options?: IndexOptions): Promise<void>;

  /**
   * Creates empty physical collections for a rebuild and returns their generation. They may
   * lack the declared indexes until `indexGeneration`, so that loading them is cheap.
   */
  prepareGeneration(collections: readonly string[]): Promise<string>;
  /** Builds the declared indexes on a generation's collections, once loaded. Idempotent. */
  indexGeneration(collections: readonly string[], generation: string): Promise<void>;
  /**
   * Points the logical names at the generation's physical collections (building any declared
   * index they still lack first), dropping the old ones.
   */
  swap(collections: readonly string[], generation: string): Promise<void>;
  /**
   * Drops the collections of generations prepared and never swapped in (a rebuild that failed,
   * or whose process died), never a live one: the generation given, or every one. Returns the
   * generations dropped. The projector calls it as it starts, since it alone rebuilds.
   */
  discardPreparedGenerations(generation?: string): Promise<string[]>;

  close(): Promise<void>;
}

export interface IndexOptions {
  /**
   * Holds only the documents whose first field is present and not null, so it costs nothing
   * for the others: for a field few documents have (the instances still in flight), found by
   * equality or `$in` with values that are not null. A sparse and a full index on the same
   * fields are two indexes.
   */
  readonly sparse?: boolean;
  /**
   * With `sparse`, the field whose presence puts a document in the index, instead of its first
   * field: an index in one field's order over the few documents that have another (the replicas
   * among the share instances, by creation time). A filter that says the field is not null
   * (`$ne: null`) finds them on it; a sparse index with and one without are two indexes.
   */
  readonly sparseOn?: string;
}

export class CheckpointConflictError extends Error {
  constructor(
    readonly checkpointName: string,
    readonly expected: number | undefined,
    readonly actual: number | undefined,
  ) {
    super(`checkpoint ${checkpointName}: expected ${String(expected)}, found ${String(actual)}`);
    this.name = 'CheckpointConflictError';
  }
}
