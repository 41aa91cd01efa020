import type { EventFilter, RecordedEvent } from '#hawser/eventstore';
import type { Document, Filter, Identified, IndexOptions } from '../document-store.port.js';

/**
 * A sparse index as a projection declares it: its fields, holding the documents that have the
 * first; or its fields and the field whose presence puts a document in it (`sparseOn`).
 */
export type SparseIndex =
  readonly string[] | { readonly fields: readonly string[]; readonly sparseOn: string };

/** The fields and `ensureIndex` options of a declared sparse index. */
export const sparseIndexOf = (
  index: SparseIndex,
): { fields: readonly string[]; options: IndexOptions } =>
  'sparseOn' in index
    ? { fields: index.fields, options: { sparse: true, sparseOn: index.sparseOn } }
    : { fields: index, options: { sparse: true } };

/**
 * A read model built from the log. `handle` is called once per matching event, in log order;
 * its writes go through `ctx` and are committed with the projection's checkpoint.
 */
export interface Projection {
  /** Also the name of its checkpoint. */
  readonly name: string;
  /** The logical collections it owns (and writes); a rebuild replaces all of them. */
  readonly collections: readonly string[];
  /**
   * The shape of what it writes (1 when absent), raised when documents written before must be
   * written again to be found or read: a store written at a lower version is rebuilt once, online
   * (`ProjectionRunner.rebuildOutdated`).
   */
  readonly version?: number;
  /** Which events it needs; all events when absent. */
  readonly filter?: EventFilter;
  /** Indexes per collection (see `DocumentStore.ensureIndex`), created when the runner starts. */
  readonly indexes?: Readonly<Record<string, readonly (readonly string[])[]>>;
  /** Sparse indexes per collection (`ensureIndex` with `sparse`), created with the others. */
  readonly sparseIndexes?: Readonly<Record<string, readonly SparseIndex[]>>;
  /** Indexes declared before and no longer, dropped when the runner starts (`dropIndex`). */
  readonly retiredIndexes?: Readonly<Record<string, readonly (readonly string[])[]>>;
  /** Kept counts per collection (see `DocumentStore.ensureCount`), kept with the indexes. */
  readonly counts?: Readonly<Record<string, readonly (readonly string[])[]>>;
  handle(event: RecordedEvent, ctx: ProjectionContext): void | Promise<void>;
}

/**
 * A projection's view of its collections during a batch: reads see the batch's own earlier
 * writes. Treat returned documents as read-only and put new objects.
 */
export interface ProjectionContext {
  get<T extends Identified = Document>(collection: string, id: string): Promise<T | undefined>;
  /** Matching documents, the batch's writes included, in no particular order. */
  find<T extends Identified = Document>(collection: string, filter?: Filter): Promise<T[]>;
  put(collection: string, document: Identified): void;
  delete(collection: string, id: string): void;
}
