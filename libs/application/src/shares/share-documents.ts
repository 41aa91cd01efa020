import { shareDocumentOf, type ShareDocument } from '#hawser/projections';
import { DerivedByRevision } from './derived-by-revision.js';

/**
 * Estimated heap bytes of the kept documents (see `estimatedBytes`): about 1,100 shares with
 * little metadata, more than a page of 1,000, and fewer when shares carry large metadata. The
 * API's views of them are kept beside them (`keptViews`), about as much again.
 */
export const KEPT_SHARE_DOCUMENT_BYTES = 1024 * 1024;

/**
 * The API's document of the shares this process read last, by share id and revision (see
 * `DerivedByRevision`): frozen, shared by every listing and show of an unchanged share.
 */
export class ShareDocuments extends DerivedByRevision<ShareDocument> {
  constructor(budgetBytes = KEPT_SHARE_DOCUMENT_BYTES) {
    super(shareDocumentOf, budgetBytes);
  }
}
