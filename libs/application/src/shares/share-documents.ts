import { shareDocumentOf, type ShareDocument, type ShareRecord } from '#hawser/projections';
import { estimatedBytes } from '../estimated-bytes.js';

/**
 * Estimated heap bytes of the kept documents (see `estimatedBytes`): about 1,100 shares with
 * little metadata, more than a page of 1,000, and fewer when shares carry large metadata. The
 * API's views of them are kept beside them (`keptViews`), about as much again.
 */
export const KEPT_SHARE_DOCUMENT_BYTES = 1024 * 1024;

/** Freezes the document and every object and array in it, so no reader can change a shared one. */
const deepFreeze = <T>(value: T): T => {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const held of Object.values(value)) deepFreeze(held);
  }
  return value;
};

interface Kept {
  readonly document: ShareDocument;
  readonly bytes: number;
}

/**
 * The API's document of the shares this process read last, by share id and the revision of
 * the share's stream the stored record reflects. A share's record is a function of its stream
 * alone (one fold per event), so the same id at the same revision always gives the same
 * document: a listing or a show of an unchanged share skips unpacking its record and deriving
 * the document again, and any newer (or older) revision is derived afresh and replaces it.
 * Documents are frozen: every reader shares them. Bounded by their estimated bytes, not by a
 * count, since a share's metadata can make its document a hundred times larger than another's;
 * the least recently read are dropped first.
 */
export class ShareDocuments {
  private readonly kept = new Map<string, Kept>();
  private keptBytes = 0;

  constructor(private readonly budgetBytes = KEPT_SHARE_DOCUMENT_BYTES) {}

  /** The record's document, derived once per revision. */
  of(record: ShareRecord): ShareDocument {
    const known = this.kept.get(record.id);
    if (known !== undefined) {
      this.kept.delete(record.id);
      this.keptBytes -= known.bytes;
    }
    const kept: Kept =
      known !== undefined && known.document.revision === record.revision
        ? known
        : this.derived(record);
    this.kept.set(record.id, kept);
    this.keptBytes += kept.bytes;
    for (const [id, oldest] of this.kept) {
      if (this.keptBytes <= this.budgetBytes || oldest === kept) break;
      this.kept.delete(id);
      this.keptBytes -= oldest.bytes;
    }
    return kept.document;
  }

  /**
   * The document kept for the share at that revision, refreshed as read; undefined when none is
   * (never derived, dropped, or derived at another revision): a listing then reads the record.
   */
  keptAt(id: string, revision: unknown): ShareDocument | undefined {
    const known = this.kept.get(id);
    if (known === undefined || known.document.revision !== revision) return undefined;
    this.kept.delete(id);
    this.kept.set(id, known);
    return known.document;
  }

  /** How many documents are kept. */
  get size(): number {
    return this.kept.size;
  }

  /** Their estimated bytes: at most the budget, or one document's when it alone is larger. */
  get bytes(): number {
    return this.keptBytes;
  }

  private derived(record: ShareRecord): Kept {
    const document = deepFreeze(shareDocumentOf(record));
    return { document, bytes: estimatedBytes(document) };
  }
}
