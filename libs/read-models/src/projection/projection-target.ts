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
}

/** The live collections, committed with the projection's checkpoint (compare-and-set). */
export class LiveTarget implements ProjectionTarget {
  private stored: number | undefined;

  constructor(
    private readonly store: DocumentStore,
    private readonly checkpointName: string,
  ) {}

  get saved(): number {
    return this.stored ?? 0;
  }

  address(collection: string): string {
    return collection;
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
  }
}

/**
 * A rebuild's fresh generation. It keeps no checkpoint: a rebuild interrupted by a crash is
 * started again into a new generation, and the live checkpoint is what survives the swap.
 */
export class GenerationTarget implements ProjectionTarget {
  private position = 0;

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

  async save(writes: readonly DocumentWrite[], position: number): Promise<void> {
    if (writes.length > 0) await this.store.write(writes);
    this.position = position;
  }
}
