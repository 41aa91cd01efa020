import type { CapabilityMap } from './pool-capabilities.js';

/** A capability the pool reported itself: a spec named `constructor` finds none on any pool. */
const ownCapability = (capabilities: CapabilityMap, key: string): unknown =>
  Object.hasOwn(capabilities, key) ? capabilities[key] : undefined;

/**
 * One capability key across all pools, as small integer ids of its distinct values: matching a
 * share-type requirement then costs one match per distinct value and one array read per pool,
 * instead of a property lookup on every pool's map.
 */
export class CapabilityValueColumn {
  /** Value id per pool row; id 0 is "missing or null". */
  ids: Int32Array;
  /** The value of each id. */
  readonly values: unknown[] = [null];
  private readonly scalarIds = new Map<unknown, number>();
  private readonly structuredIds = new Map<string, number>();

  constructor(
    readonly key: string,
    capabilities: readonly CapabilityMap[],
    size: number,
  ) {
    this.ids = new Int32Array(Math.max(capabilities.length, size, 1));
    for (let row = 0; row < size; row++) {
      this.ids[row] = this.idOf(ownCapability(capabilities[row] as CapabilityMap, key));
    }
  }

  /** Records a pool's new value (after a report). */
  update(row: number, capabilities: CapabilityMap): void {
    this.ids[row] = this.idOf(ownCapability(capabilities, this.key));
  }

  /** Makes room for rows appended to the pool table (their ids arrive with their reports). */
  ensureRows(capacity: number): void {
    if (this.ids.length >= capacity) return;
    const grown = new Int32Array(capacity);
    grown.set(this.ids);
    this.ids = grown;
  }

  /** Distinct values seen, old ones included: the owner rebuilds the column when it grows too large. */
  get distinctValues(): number {
    return this.values.length;
  }

  private idOf(value: unknown): number {
    if (value === null || value === undefined) return 0;
    const structured = typeof value === 'object';
    const lookupKey = structured ? JSON.stringify(value) : value;
    const ids: Map<unknown, number> = structured ? this.structuredIds : this.scalarIds;
    let id = ids.get(lookupKey);
    if (id === undefined) {
      id = this.values.length;
      this.values.push(value);
      ids.set(lookupKey, id);
    }
    return id;
  }
}
