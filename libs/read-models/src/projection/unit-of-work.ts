import type {
  Document,
  DocumentStore,
  DocumentWrite,
  Filter,
  Identified,
} from '../document-store.port.js';
import { matchesFilter } from '../filter-matcher.js';
import type { ProjectionContext } from './projection.js';

/**
 * The writes of one batch, held in memory until the batch commits. Reads look here first, so
 * a handler sees what earlier events of the same batch wrote. `address` maps a collection
 * the projection owns to the name to use (the live name, or `name@generation` in a rebuild).
 */
export class UnitOfWork implements ProjectionContext {
  /** Per addressed collection: id -> latest document, or null once deleted. */
  private readonly pending = new Map<string, Map<string, Identified | null>>();

  constructor(
    private readonly store: DocumentStore,
    private readonly owned: ReadonlySet<string>,
    private readonly address: (collection: string) => string,
    private readonly certainlyAbsent: (addressed: string, id: string) => boolean = () => false,
    /** The document as last committed (null: deleted), or undefined to ask the store. */
    private readonly remembered: (
      addressed: string,
      id: string,
    ) => Identified | null | undefined = () => undefined,
  ) {}

  async get<T extends Identified = Document>(
    collection: string,
    id: string,
  ): Promise<T | undefined> {
    const name = this.read(collection);
    const pending = this.pending.get(name);
    if (pending?.has(id)) return (pending.get(id) ?? undefined) as T | undefined;
    const remembered = this.remembered(name, id);
    if (remembered !== undefined) return (remembered ?? undefined) as T | undefined;
    if (this.certainlyAbsent(name, id)) return undefined;
    return this.store.get<T>(name, id);
  }

  async find<T extends Identified = Document>(collection: string, filter?: Filter): Promise<T[]> {
    const name = this.read(collection);
    const stored = await this.store.find<T>(name, filter);
    const pending = this.pending.get(name);
    if (pending === undefined) return stored;
    const unchanged = stored.filter((document) => !pending.has(document.id));
    const written = [...pending.values()].filter(
      (document): document is T => document !== null && matchesFilter(document, filter),
    );
    return [...unchanged, ...written];
  }

  put(collection: string, document: Identified): void {
    if (typeof document.id !== 'string') throw new Error(`a document of ${collection} has no id`);
    this.collection(this.write(collection)).set(document.id, document);
  }

  delete(collection: string, id: string): void {
    this.collection(this.write(collection)).set(id, null);
  }

  /** The final state of every document the batch touched. */
  writes(): DocumentWrite[] {
    const writes: DocumentWrite[] = [];
    for (const [collection, documents] of this.pending) {
      for (const [id, document] of documents) {
        writes.push(
          document === null
            ? { kind: 'delete', collection, id }
            : { kind: 'put', collection, document },
        );
      }
    }
    return writes;
  }

  private read(collection: string): string {
    return this.owned.has(collection) ? this.address(collection) : collection;
  }

  private write(collection: string): string {
    if (!this.owned.has(collection)) {
      throw new Error(
        `the projection does not own collection ${collection}; list it in collections`,
      );
    }
    return this.address(collection);
  }

  private collection(name: string): Map<string, Identified | null> {
    let documents = this.pending.get(name);
    if (documents === undefined) {
      documents = new Map();
      this.pending.set(name, documents);
    }
    return documents;
  }
}
