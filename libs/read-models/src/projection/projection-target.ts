import type { DocumentStore, DocumentWrite, Identified } from '../document-store.port.js';
import { generationCollection } from '../generation-id.js';
import type { CommitRound } from './commit-round.js';
import { CommittedDocuments } from './committed-documents.js';

/** Stores a batch's writes together with the position it reached. */
export type SaveBatch = (writes: readonly DocumentWrite[], position: number) => Promise<void>;

/** Where a projection worker's batches go: the live collections or a rebuild's generation. */
export interface ProjectionTarget {
  /** The name under which to address an owned collection. */
  address(collection: string): string;
  /** The position to resume after. */
  load(): Promise<number>;
  /** Runs one batch: `work` handles it and saves what it wrote, at most once, through `save`. */
  batch<T>(work: (save: SaveBatch) => Promise<T>): Promise<T>;
  /** The position last stored. */
  readonly saved: number;
  /**
   * True when the document certainly does not exist, so a read need not ask the store. A
   * rebuild's generation, and live collections caught up for the first time, start empty and
   * only this worker writes them: what it has not written is not there, which spares a store
   * lookup per new document.
   */
  isCertainlyAbsent(addressedCollection: string, id: string): boolean;
  /** A document as this target last committed it (null: deleted), undefined when not known. */
  remembered?(addressedCollection: string, id: string): Identified | null | undefined;
  /** Told when the collections may have changed behind the worker (a pause, a swap). */
  forget?(): void;
  /** Told each time a batch reaches the head of the log (or the rebuild's end). */
  caughtUp?(): void;
}

/** Documents a live projection remembers as it committed them (about two per share). */
const COMMITTED_DOCUMENTS_KEPT = 1_000;

/**
 * The live collections, committed with the projection's checkpoint (compare-and-set), in the
 * round of the live projections of the same store (one transaction for the batches handled
 * together).
 */
export class LiveTarget implements ProjectionTarget {
  private stored: number | undefined;
  /** Set while catching up into collections that were empty, with no checkpoint, at load. */
  private written: WrittenIds | undefined;
  private readonly committedDocuments = new CommittedDocuments(COMMITTED_DOCUMENTS_KEPT);

  constructor(
    private readonly store: DocumentStore,
    private readonly checkpointName: string,
    private readonly collections: readonly string[],
    private readonly round: CommitRound,
    /** Told of every batch's writes once committed (the change feed). */
    private readonly committed: (writes: readonly DocumentWrite[]) => void = () => {},
  ) {}

  get saved(): number {
    return this.stored ?? 0;
  }

  address(collection: string): string {
    return collection;
  }

  /**
   * A first catch-up (no checkpoint, empty collections) is the only writer of its documents
   * for as long as its commits succeed: another runner's commit would move the checkpoint and
   * make the next one fail, and `load` runs again.
   */
  isCertainlyAbsent(addressedCollection: string, id: string): boolean {
    return this.written?.absent(addressedCollection, id) ?? false;
  }

  /**
   * Once live, batches are small and a lookup per new document is cheap, while the ids written
   * would grow with every share for the life of the process: they are dropped.
   */
  caughtUp(): void {
    this.written = undefined;
  }

  remembered(addressedCollection: string, id: string): Identified | null | undefined {
    return this.committedDocuments.get(addressedCollection, id);
  }

  forget(): void {
    this.committedDocuments.clear();
  }

  async load(): Promise<number> {
    this.committedDocuments.clear();
    const first = await isFirstCatchUp(this.store, this.checkpointName, this.collections);
    this.stored = await this.store.readCheckpoint(this.checkpointName);
    this.written = first ? new WrittenIds() : undefined;
    return this.saved;
  }

  /** Joins the round first, so the round waits for this batch before it commits. */
  async batch<T>(work: (save: SaveBatch) => Promise<T>): Promise<T> {
    const ticket = this.round.join();
    try {
      return await work(async (writes, position) => {
        await ticket.commit({
          writes,
          checkpoint: { name: this.checkpointName, position, expectedPosition: this.stored },
        });
        this.stored = position;
        this.written?.add(writes);
        this.committedDocuments.add(writes);
        if (writes.length > 0) this.committed(writes);
      });
    } catch (error) {
      // Whatever failed, the documents are read from the store again until the next commit.
      this.committedDocuments.clear();
      throw error;
    } finally {
      ticket.leave();
    }
  }
}

/** No checkpoint and empty collections: a projection's first catch-up, from position zero. */
export async function isFirstCatchUp(
  store: DocumentStore,
  checkpointName: string,
  collections: readonly string[],
): Promise<boolean> {
  if ((await store.readCheckpoint(checkpointName)) !== undefined) return false;
  for (const collection of collections) {
    if ((await store.count(collection)) > 0) return false;
  }
  return true;
}

/**
 * A rebuild's fresh generation. It keeps no checkpoint: a rebuild interrupted by a crash is
 * started again into a new generation, and the live checkpoint is what survives the swap.
 */
export class GenerationTarget implements ProjectionTarget {
  private position = 0;
  private readonly written = new WrittenIds();

  constructor(
    private readonly store: DocumentStore,
    private readonly generation: string,
  ) {}

  get saved(): number {
    return this.position;
  }

  address(collection: string): string {
    return generationCollection(collection, this.generation);
  }

  async load(): Promise<number> {
    return this.position;
  }

  isCertainlyAbsent(addressedCollection: string, id: string): boolean {
    return this.written.absent(addressedCollection, id);
  }

  batch<T>(work: (save: SaveBatch) => Promise<T>): Promise<T> {
    return work(async (writes, position) => {
      if (writes.length > 0) await this.store.write(writes);
      this.written.add(writes);
      this.position = position;
    });
  }
}

/**
 * The ids a worker has written (deleted ones included), per addressed collection, into
 * collections only it writes and that started empty: any other id is certainly absent.
 */
class WrittenIds {
  private readonly ids = new Map<string, Set<string>>();

  absent(collection: string, id: string): boolean {
    return !this.ids.get(collection)?.has(id);
  }

  add(writes: readonly DocumentWrite[]): void {
    for (const write of writes) {
      let ids = this.ids.get(write.collection);
      if (!ids) {
        ids = new Set();
        this.ids.set(write.collection, ids);
      }
      ids.add(write.kind === 'put' ? write.document.id : write.id);
    }
  }
}
