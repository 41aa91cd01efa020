import type { DocumentWrite, Filter, FindOptions, VersionedId } from '../document-store.port.js';
import { SqliteDocumentStore } from '../sqlite/sqlite-document-store.js';

/**
 * A SQLite store as a listing meets it while another process projects: it notes the ids each
 * `getMany` reads whole, and writes `writesBetweenReads` once, right after the next
 * `findVersions` (a listing's first read) and before whatever the listing reads next.
 */
export class InterleavedStore extends SqliteDocumentStore {
  /** The ids read whole by `getMany`. */
  readonly readWhole: string[] = [];
  /** Writes made once, right after the next `findVersions`: another process's projector. */
  writesBetweenReads: DocumentWrite[] = [];

  override async findVersions(
    collection: string,
    versionField: string,
    filter?: Filter,
    options?: FindOptions,
  ): Promise<VersionedId[]> {
    const listed = await super.findVersions(collection, versionField, filter, options);
    await this.write(this.writesBetweenReads.splice(0));
    return listed;
  }

  override getMany<T extends { readonly id: string }>(
    collection: string,
    ids: readonly string[],
  ): Promise<T[]> {
    this.readWhole.push(...ids);
    return super.getMany<T>(collection, ids);
  }
}
