import type { DocumentStore, DocumentWrite } from '../document-store.port.js';
import { generationCollection } from '../generation-id.js';

/** Where a projection worker's batches go: the live collections or a rebuild's generation. */
export interface ProjectionTarget {
  /** The name under which to address an owned collection. */
  address(collection: string): string;
  /** The position to resume after. */
  load(): Promise<number>;
  /** Stores a batch's writes together with the position it reached. */
  save(writes: readonly DocumentWrite[], position: number): Promise<void>;
  /** The position last stored. */
  readonly saved: number;
  /**
   * True when the document certainly does not exist, so a read need not ask the store. A
   * rebuild's generation starts empty and only this worker writes it: what it has not written
   * is not there, which spares a store lookup per new document during a rebuild.
   */
  isCertainlyAbsent(addressedCollection: string, id: string): boolean;
}

/** The live collections, committed with the projection's checkpoint (compare-and-set). */
export class LiveTarget implements ProjectionTarget {
  private stored: number | undefined;

  constructor(
    private readonly store: DocumentStore,
    private readonly checkpointName: string,
    /** Told of every batch's writes once committed (the change feed). */
    private readonly committed: (writes: readonly DocumentWrite[]) => void = () => {},
  ) {}

  get saved(): number {
    return this.stored ?? 0;
  }

  address(collection: string): string {
    return collection;
  }

  isCertainlyAbsent(): boolean {
    return false;
  }

  async load(): Promise<number> {
    this.stored = await this.store.readCheckpoint(this.checkpointName);
    return this.saved;
  }

  async save(writes: readonly DocumentWrite[], position: number): Promise<void> {
    await this.store.commit(writes, {
      name: this.checkpointName,
      position,
      expectedPosition: this.stored,
    });
    this.stored = position;
    if (writes.length > 0) this.committed(writes);
  }
}

/**
 * A rebuild's fresh generation. It keeps no checkpoint: a rebuild interrupted by a crash is
 * started again into a new generation, and the live checkpoint is what survives the swap.
 */
export class GenerationTarget implements ProjectionTarget {
  private position = 0;
  /** Per addressed collection, the ids this rebuild has written (deleted ones included). */
  private readonly written = new Map<string, Set<string>>();

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
    return !this.written.get(addressedCollection)?.has(id);
  }

  async save(writes: readonly DocumentWrite[], position: number): Promise<void> {
    if (writes.length > 0) await this.store.write(writes);
    for (const write of writes) {
      let ids = this.written.get(write.collection);
      if (!ids) {
        ids = new Set();
        this.written.set(write.collection, ids);
      }
      ids.add(write.kind === 'put' ? write.document.id : write.id);
    }
    this.position = position;
  }
}
