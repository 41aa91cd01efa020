import type { CompiledExpression } from '../expressions/expression-compiler.js';
import type { CapabilityMap } from './pool-capabilities.js';

/** What a pool's free_capacity_gb holds. */
export const FreeCapacity = { Known: 0, Unknown: 1, Missing: 2 } as const;

/** Which reserved percentage a request applies: the share's, a clone's snapshot one, an extend's. */
export const ReserveKind = { Share: 0, Snapshot: 1, Extend: 2 } as const;
export type ReserveKind = (typeof ReserveKind)[keyof typeof ReserveKind];

/** The precomputed capacity figures exist per reserve kind and per thin logic allowed or not. */
const CAPACITY_VARIANTS = 6;

export const capacityVariant = (kind: ReserveKind, useThinLogic: boolean): number =>
  2 * kind + (useThinLogic ? 1 : 0);

/** "Evaluate per request" in the precomputed function outcome columns. */
export const NOT_CONSTANT = -1;

/**
 * Every pool's state, one typed array per field, indexed by the pool's position in Manila's
 * enumeration order (back end by back end in registration order, pools in first-report order).
 * Filters and weighers read these in tight loops without touching per-pool objects.
 */
export class PoolColumns {
  readonly host: string[];
  readonly poolName: string[];
  readonly backendIndex: Int32Array;
  readonly capabilities: CapabilityMap[];
  /** NaN when 'unknown'. */
  readonly totalGb: Float64Array;
  /** NaN unless freeState is Known. */
  readonly freeGb: Float64Array;
  readonly freeState: Uint8Array;
  readonly allocatedGb: Float64Array;
  /** NaN when null. */
  readonly provisionedGb: Float64Array;
  /** float(percentage) / 100, computed once so weights match Manila bit for bit. */
  readonly reservedFraction: Float64Array;
  readonly reservedSnapshotFraction: Float64Array;
  readonly reservedExtendFraction: Float64Array;
  readonly thin: Uint8Array;
  readonly maxOverSubscriptionRatio: Float64Array;
  readonly replicationDomain: (string | null)[];
  readonly replicationType: (string | null)[];
  readonly multipleSubnetSupport: Uint8Array;
  readonly filterFunction: (CompiledExpression | null)[];
  readonly goodnessFunction: (CompiledExpression | null)[];
  /** 1 pass, 0 fail, NOT_CONSTANT when the function reads more than the pool's capabilities. */
  readonly filterConstant: Int8Array;
  /** The goodness rating, NaN when it must be evaluated per request. */
  readonly goodnessConstant: Float64Array;
  /** Timestamp of the report the capacity figures come from. */
  readonly reportedAt: Float64Array;
  /** Manila's `updated`: the later of that report and the last placement on the pool. */
  readonly updatedAt: Float64Array;
  readonly consumedIds: (Set<string> | undefined)[];
  /**
   * Per capacity variant (capacity-figures.ts): sizes up to this surely pass CapacityFilter,
   * sizes above `failsAbove` surely fail; the filter computes in between.
   */
  readonly fitsUpTo: Float64Array[];
  readonly failsAbove: Float64Array[];
  /** Per capacity variant: CapacityWeigher's raw weight, NaN for an 'unknown' capacity. */
  readonly capacityWeight: Float64Array[];

  /** Rows in use; the arrays have room for `capacity`. */
  size = 0;

  constructor(readonly capacity: number) {
    const size = capacity;
    this.host = new Array<string>(size).fill('');
    this.poolName = new Array<string>(size).fill('');
    this.backendIndex = new Int32Array(size);
    this.capabilities = new Array<CapabilityMap>(size).fill({});
    this.totalGb = new Float64Array(size);
    this.freeGb = new Float64Array(size);
    this.freeState = new Uint8Array(size);
    this.allocatedGb = new Float64Array(size);
    this.provisionedGb = new Float64Array(size);
    this.reservedFraction = new Float64Array(size);
    this.reservedSnapshotFraction = new Float64Array(size);
    this.reservedExtendFraction = new Float64Array(size);
    this.thin = new Uint8Array(size);
    this.maxOverSubscriptionRatio = new Float64Array(size);
    this.replicationDomain = new Array<string | null>(size).fill(null);
    this.replicationType = new Array<string | null>(size).fill(null);
    this.multipleSubnetSupport = new Uint8Array(size);
    this.filterFunction = new Array<CompiledExpression | null>(size).fill(null);
    this.goodnessFunction = new Array<CompiledExpression | null>(size).fill(null);
    this.filterConstant = new Int8Array(size);
    this.goodnessConstant = new Float64Array(size);
    this.reportedAt = new Float64Array(size).fill(-Infinity);
    this.updatedAt = new Float64Array(size).fill(-Infinity);
    this.consumedIds = new Array<Set<string> | undefined>(size).fill(undefined);
    const variants = () => Array.from({ length: CAPACITY_VARIANTS }, () => new Float64Array(size));
    this.fitsUpTo = variants();
    this.failsAbove = variants();
    this.capacityWeight = variants();
  }

  /** A copy with room for more rows (typed arrays copied in bulk). */
  grownTo(capacity: number): PoolColumns {
    const next = new PoolColumns(capacity);
    next.size = this.size;
    const source = this as unknown as Record<string, unknown>;
    const target = next as unknown as Record<string, unknown>;
    for (const key of Object.keys(source)) {
      const from = source[key];
      const to = target[key];
      if (Array.isArray(from) && from[0] instanceof Float64Array) {
        from.forEach((variant: Float64Array, i) =>
          (to as Float64Array[])[i]?.set(variant.subarray(0, this.size)),
        );
      } else if (
        from instanceof Float64Array ||
        from instanceof Int32Array ||
        from instanceof Uint8Array ||
        from instanceof Int8Array
      ) {
        (to as typeof from).set(from.subarray(0, this.size) as never);
      } else if (Array.isArray(from)) {
        for (let i = 0; i < this.size; i++) (to as unknown[])[i] = from[i];
      }
    }
    return next;
  }

  /** Copies one pool's row into another table (used when pools are removed or reordered). */
  copyRowTo(target: PoolColumns, from: number, to: number): void {
    target.host[to] = this.host[from] as string;
    target.poolName[to] = this.poolName[from] as string;
    target.backendIndex[to] = this.backendIndex[from] as number;
    target.capabilities[to] = this.capabilities[from] as CapabilityMap;
    target.totalGb[to] = this.totalGb[from] as number;
    target.freeGb[to] = this.freeGb[from] as number;
    target.freeState[to] = this.freeState[from] as number;
    target.allocatedGb[to] = this.allocatedGb[from] as number;
    target.provisionedGb[to] = this.provisionedGb[from] as number;
    target.reservedFraction[to] = this.reservedFraction[from] as number;
    target.reservedSnapshotFraction[to] = this.reservedSnapshotFraction[from] as number;
    target.reservedExtendFraction[to] = this.reservedExtendFraction[from] as number;
    target.thin[to] = this.thin[from] as number;
    target.maxOverSubscriptionRatio[to] = this.maxOverSubscriptionRatio[from] as number;
    target.replicationDomain[to] = this.replicationDomain[from] as string | null;
    target.replicationType[to] = this.replicationType[from] as string | null;
    target.multipleSubnetSupport[to] = this.multipleSubnetSupport[from] as number;
    target.filterFunction[to] = this.filterFunction[from] as CompiledExpression | null;
    target.goodnessFunction[to] = this.goodnessFunction[from] as CompiledExpression | null;
    target.filterConstant[to] = this.filterConstant[from] as number;
    target.goodnessConstant[to] = this.goodnessConstant[from] as number;
    target.reportedAt[to] = this.reportedAt[from] as number;
    target.updatedAt[to] = this.updatedAt[from] as number;
    target.consumedIds[to] = this.consumedIds[from];
    for (let variant = 0; variant < CAPACITY_VARIANTS; variant++) {
      copyCell(this.fitsUpTo, target.fitsUpTo, variant, from, to);
      copyCell(this.failsAbove, target.failsAbove, variant, from, to);
      copyCell(this.capacityWeight, target.capacityWeight, variant, from, to);
    }
  }
}

const copyCell = (
  source: readonly Float64Array[],
  target: readonly Float64Array[],
  variant: number,
  from: number,
  to: number,
): void => {
  (target[variant] as Float64Array)[to] = (source[variant] as Float64Array)[from] as number;
};
