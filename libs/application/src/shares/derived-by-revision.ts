import type { ShareRecord } from '#hawser/projections';
import { estimatedBytes } from '../estimated-bytes.js';

/** Freezes the value and every object and array in it, so no reader can change a shared one. */
const deepFreeze = <T>(value: T): T => {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const held of Object.values(value)) deepFreeze(held);
  }
  return value;
};

interface Kept<T> {
  readonly revision: number;
  readonly derived: T;
  readonly bytes: number;
}

/**
 * What readers derive from a share's record (its API document, its instances' documents), kept
 * by share id and the revision of the share's stream the stored record reflects. A share's record
 * is a function of its stream alone (one fold per event), so the same id at the same revision
 * always derives the same value: a listing or a show of an unchanged share skips unpacking its
 * record and deriving again, and any newer (or older) revision is derived afresh and replaces it.
 * Values are frozen: every reader shares them. Bounded by their estimated bytes, not by a count,
 * since a share's metadata can make one a hundred times larger than another; the least recently
 * read are dropped first.
 */
export class DerivedByRevision<T extends object> {
  private readonly kept = new Map<string, Kept<T>>();
  private keptBytes = 0;

  constructor(
    private readonly derive: (record: ShareRecord) => T,
    private readonly budgetBytes: number,
  ) {}

  /** What the record derives, derived once per revision. */
  of(record: ShareRecord): T {
    const known = this.kept.get(record.id);
    if (known !== undefined) {
      this.kept.delete(record.id);
      this.keptBytes -= known.bytes;
    }
    const kept =
      known !== undefined && known.revision === record.revision ? known : this.derived(record);
    this.kept.set(record.id, kept);
    this.keptBytes += kept.bytes;
    for (const [id, oldest] of this.kept) {
      if (this.keptBytes <= this.budgetBytes || oldest === kept) break;
      this.kept.delete(id);
      this.keptBytes -= oldest.bytes;
    }
    return kept.derived;
  }

  /**
   * What is kept for the share at that revision, refreshed as read; undefined when nothing is
   * (never derived, dropped, or derived at another revision): a listing then reads the record.
   */
  keptAt(id: string, revision: unknown): T | undefined {
    const known = this.kept.get(id);
    if (known === undefined || known.revision !== revision) return undefined;
    this.kept.delete(id);
    this.kept.set(id, known);
    return known.derived;
  }

  /** How many shares' values are kept. */
  get size(): number {
    return this.kept.size;
  }

  /** Their estimated bytes: at most the budget, or one value's when it alone is larger. */
  get bytes(): number {
    return this.keptBytes;
  }

  private derived(record: ShareRecord): Kept<T> {
    const derived = deepFreeze(this.derive(record));
    return { revision: record.revision, derived, bytes: estimatedBytes(derived) };
  }
}
