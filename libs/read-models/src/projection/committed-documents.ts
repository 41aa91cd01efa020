import type { DocumentWrite, Identified } from '../document-store.port.js';

/**
 * The documents a live projection committed last (null for one it deleted), at most `capacity`,
 * the oldest written dropped first. A live projection is the only writer of its collections
 * while its commits succeed (each is a compare-and-set on its checkpoint), so what it committed
 * is what the store holds: the next event of the same stream reads it here instead of querying
 * and decoding it again. Forgotten whenever that may no longer hold (a refused commit, a pause).
 */
export class CommittedDocuments {
  private readonly documents = new Map<string, Identified | null>();

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.documents.size;
  }

  /** The document as committed, null when it was deleted, undefined when not remembered. */
  get(collection: string, id: string): Identified | null | undefined {
    return this.documents.get(keyOf(collection, id));
  }

  add(writes: readonly DocumentWrite[]): void {
    for (const write of writes) {
      const key = keyOf(write.collection, write.kind === 'put' ? write.document.id : write.id);
      // Deleted first so that the key moves to the end: the oldest write is dropped first.
      this.documents.delete(key);
      this.documents.set(key, write.kind === 'put' ? write.document : null);
    }
    for (const key of this.documents.keys()) {
      if (this.documents.size <= this.capacity) break;
      this.documents.delete(key);
    }
  }

  clear(): void {
    this.documents.clear();
  }
}

const keyOf = (collection: string, id: string): string => `${collection}\n${id}`;
