import type { DocumentWrite } from '../document-store.port.js';

/** Called with the writes of one committed batch that touch the listened collection. */
export type ChangeListener = (writes: readonly DocumentWrite[]) => void;

/**
 * The live read models' change feed: the projection runner publishes each batch's writes
 * once they are committed, and readers that push changes to clients (GraphQL subscriptions)
 * listen per collection instead of polling the store. In memory and per process: it carries
 * the changes this process's runner commits. A rebuild's writes go to a fresh generation and
 * are not published.
 */
export class ReadModelChanges {
  private readonly listeners = new Map<string, Set<ChangeListener>>();

  /** Listens to one logical collection; returns the function that stops listening. */
  listen(collection: string, listener: ChangeListener): () => void {
    let set = this.listeners.get(collection);
    if (set === undefined) {
      set = new Set();
      this.listeners.set(collection, set);
    }
    set.add(listener);
    return () => set.delete(listener);
  }

  /** Whether anyone listens to any collection now. */
  get followed(): boolean {
    for (const set of this.listeners.values()) if (set.size > 0) return true;
    return false;
  }

  publish(writes: readonly DocumentWrite[]): void {
    if (this.listeners.size === 0) return;
    const byCollection = new Map<string, DocumentWrite[]>();
    for (const write of writes) {
      if (!this.listeners.get(write.collection)?.size) continue;
      const list = byCollection.get(write.collection) ?? [];
      list.push(write);
      byCollection.set(write.collection, list);
    }
    for (const [collection, list] of byCollection) {
      // A listener that throws must not keep the others, or the runner, from going on.
      for (const listener of this.listeners.get(collection) ?? []) {
        try {
          listener(list);
        } catch {
          // the listener's own concern
        }
      }
    }
  }
}
