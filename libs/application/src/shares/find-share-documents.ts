import { SHARES, type ShareDocument, type ShareRecord } from '#hawser/projections';
import type { DocumentStore, Filter, FindOptions } from '#hawser/read-models';
import type { ShareDocuments } from './share-documents.js';

/**
 * The API documents of the shares a `find` returns, reading whole only the records whose
 * revision has no kept document: the ids and revisions are listed first, the kept documents
 * taken as they are, the others read in one `getMany` and derived. A share written or deleted
 * between the two reads (another process's projector) is caught by its revision or its absence,
 * and the page is then read whole in one query, so a page is always one state of the store.
 */
export const findShareDocuments = async (
  store: DocumentStore,
  kept: ShareDocuments,
  filter: Filter,
  options: FindOptions,
): Promise<ShareDocument[]> => {
  const listed = await store.findVersions(SHARES, 'revision', filter, options);
  const found = listed.map(({ id, version }) => kept.keptAt(id, version));
  const missing = listed.filter((_, i) => found[i] === undefined);
  if (missing.length === 0) return found as ShareDocument[];
  const read = await store.getMany<ShareRecord>(
    SHARES,
    missing.map(({ id }) => id),
  );
  const unchanged =
    read.length === missing.length &&
    read.every(
      (record, i) => record.id === missing[i]?.id && record.revision === missing[i].version,
    );
  if (!unchanged) {
    const records = await store.find<ShareRecord>(SHARES, filter, options);
    return records.map((record) => kept.of(record));
  }
  let next = 0;
  return found.map((document) => document ?? kept.of(read[next++] as ShareRecord));
};
