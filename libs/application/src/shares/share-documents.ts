import { shareDocumentOf, type ShareDocument, type ShareRecord } from '#hawser/projections';

/** Shares whose API document is kept, the least recently read dropped first. */
export const KEPT_SHARE_DOCUMENTS = 5_000;

/** Freezes the document and every object and array in it, so no reader can change a shared one. */
const deepFreeze = <T>(value: T): T => {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const held of Object.values(value)) deepFreeze(held);
  }
  return value;
};

/**
 * The API's document of the shares this process read last, by share id and the revision of
 * the share's stream the stored record reflects. A share's record is a function of its stream
 * alone (one fold per event), so the same id at the same revision always gives the same
 * document: a listing or a show of an unchanged share skips unpacking its record and deriving
 * the document again, and any newer (or older) revision is derived afresh and replaces it.
 * Documents are frozen: every reader shares them.
 */
export class ShareDocuments {
  private readonly kept = new Map<string, ShareDocument>();

  constructor(private readonly capacity = KEPT_SHARE_DOCUMENTS) {}

  /** The record's document, derived once per revision. */
  of(record: ShareRecord): ShareDocument {
    const known = this.kept.get(record.id);
    this.kept.delete(record.id);
    const document =
      known !== undefined && known.revision === record.revision
        ? known
        : deepFreeze(shareDocumentOf(record));
    this.kept.set(record.id, document);
    if (this.kept.size > this.capacity) {
      this.kept.delete(this.kept.keys().next().value as string);
    }
    return document;
  }

  /**
   * The document kept for the share at that revision, refreshed as read; undefined when none is
   * (never derived, dropped, or derived at another revision): a listing then reads the record.
   */
  keptAt(id: string, revision: unknown): ShareDocument | undefined {
    const known = this.kept.get(id);
    if (known === undefined || known.revision !== revision) return undefined;
    this.kept.delete(id);
    this.kept.set(id, known);
    return known;
  }

  /** How many documents are kept (at most the capacity). */
  get size(): number {
    return this.kept.size;
  }
}
