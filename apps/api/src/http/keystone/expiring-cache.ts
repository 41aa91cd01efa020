/**
 * A bounded map whose entries each carry their own expiry. When full, the least recently used
 * entry goes first, so a flood of distinct (e.g. garbage) tokens cannot grow memory.
 */
export class ExpiringCache<V> {
  private readonly entries = new Map<string, { readonly value: V; readonly expiresAtMs: number }>();

  constructor(
    private readonly maxEntries: number,
    private readonly now: () => number,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expiresAtMs <= this.now()) return undefined;
    this.entries.set(key, entry); // re-inserted: Map order is the recency order
    return entry.value;
  }

  /** Stores nothing when the expiry has already passed. */
  set(key: string, value: V, expiresAtMs: number): void {
    this.entries.delete(key);
    if (expiresAtMs <= this.now() || this.maxEntries <= 0) return;
    while (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
    this.entries.set(key, { value, expiresAtMs });
  }
}

/** A validated token is trusted for the cache time, never past its own expiry. */
export const trustedUntil = (nowMs: number, cacheS: number, tokenExpiresAtMs: number): number =>
  Math.min(nowMs + cacheS * 1000, tokenExpiresAtMs);
