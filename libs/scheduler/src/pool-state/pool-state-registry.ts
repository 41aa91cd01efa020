import { ExpressionCache } from '../expressions/expression-cache.js';
import type { CompiledExpression } from '../expressions/expression-compiler.js';
import { filterPasses, goodnessRating } from '../expressions/function-outcome.js';
import {
  asCapabilityMap,
  type CapabilityMap,
  type ReportedPoolCapabilities,
} from './pool-capabilities.js';
import { CapabilityValueColumn } from './capability-value-column.js';
import { refreshCapacityFigures } from './capacity-figures.js';
import { FreeCapacity, NOT_CONSTANT, PoolColumns } from './pool-columns.js';
import { PoolExpressionScope } from './pool-expression-scope.js';
import { poolHost } from './pool-host.js';

export interface PoolStateRegistryOptions {
  /** A back end whose last report is older than this is left out (Manila's service_down_time, 60 s). */
  readonly serviceDownTimeMs?: number;
  /** Used for a pool that reports no max_over_subscription_ratio (Manila's option, 20.0). */
  readonly defaultMaxOverSubscriptionRatio?: number;
  readonly expressions?: ExpressionCache;
}

/** A report that cannot be used: Manila would fail to read it too. */
export class InvalidPoolReportError extends Error {
  override readonly name = 'InvalidPoolReportError';
}

interface BackendRecord {
  readonly name: string;
  availabilityZone: string | null;
  lastReportAt: number;
  /** Pool names in Manila's order: first-report order, new pools appended. */
  poolNames: string[];
  /** Row of its first pool: a back end's pools are contiguous rows. */
  firstRow: number;
  live: boolean;
  /** The capabilityVersion at which its pools' capabilities, zone or liveness last changed. */
  changedAt: number;
}

const REQUIRED_KEYS = [
  'pool_name',
  'total_capacity_gb',
  'free_capacity_gb',
  'reserved_percentage',
  'reserved_snapshot_percentage',
  'reserved_share_extend_percentage',
] as const;

/**
 * Capabilities that change with nearly every report (the capacity figures, the report's time).
 * A report changing only these changes nothing a static filter may read: a share type that
 * requires one of them is filtered per request (CapabilitiesFilter), and a filter function reading
 * one shows up as a changed outcome.
 */
export const VOLATILE_CAPABILITIES: ReadonlySet<string> = new Set([
  'free_capacity_gb',
  'allocated_capacity_gb',
  'provisioned_capacity_gb',
  'timestamp',
]);

const isThin = (value: unknown): boolean =>
  value === true || (Array.isArray(value) && value.includes(true));

/**
 * The scheduler's in-memory view of every pool: built from capability reports, debited by
 * placements until the next report supersedes them (Manila's consume_from_share), indexed for
 * fast filtering. One instance per scheduler process; not shared between threads.
 */
export class PoolStateRegistry {
  readonly serviceDownTimeMs: number;
  readonly defaultMaxOverSubscriptionRatio: number;
  readonly expressions: ExpressionCache;

  private backends: BackendRecord[] = [];
  private readonly backendByName = new Map<string, number>();
  private table = new PoolColumns(0);
  private readonly poolByHost = new Map<string, number>();
  private readonly valueColumns = new Map<string, CapabilityValueColumn>();
  private valueColumnChanges = 0;
  private changeCounter = 0;
  private layoutChanges = 0;
  private goodnessFunctionCount = 0;
  private perRequestFilterCount = 0;

  private live = new Int32Array(0);
  private liveByZone = new Map<string, Int32Array>();
  private liveFlags = new Uint8Array(0);
  private indexesStale = true;
  private livenessCheckDue = -Infinity;

  constructor(options: PoolStateRegistryOptions = {}) {
    this.serviceDownTimeMs = options.serviceDownTimeMs ?? 60_000;
    this.defaultMaxOverSubscriptionRatio = options.defaultMaxOverSubscriptionRatio ?? 20;
    this.expressions = options.expressions ?? new ExpressionCache();
  }

  /** The pool table; filters and weighers read it directly. Treat it as read-only. */
  get columns(): PoolColumns {
    return this.table;
  }

  /** Whether any pool reports a goodness_function (else the GoodnessWeigher adds nothing). */
  get hasGoodnessFunctions(): boolean {
    return this.goodnessFunctionCount > 0;
  }

  /** Whether some pool's filter_function reads more than its capabilities (evaluated per request). */
  get hasPerRequestFilterFunctions(): boolean {
    return this.perRequestFilterCount > 0;
  }

  /**
   * Changes whenever a capability (other than the VOLATILE_CAPABILITIES), a filter function's
   * outcome, a zone, the layout or the set of live pools changes; not on placements, nor on
   * reports that change only capacity figures. What a cache of what static filters keep must be
   * checked against. Each such change is a change of one back end (`backendChangedAt`), except a
   * new layout.
   */
  get capabilityVersion(): number {
    return this.changeCounter;
  }

  /**
   * Changes when rows are renumbered (a back end removed, or pools of a back end other than the
   * last added or removed): a cache of row indexes must then be rebuilt, not caught up.
   */
  get layoutVersion(): number {
    return this.layoutChanges;
  }

  /** Number of registered back ends (indexes 0 .. backendCount - 1, in enumeration order). */
  get backendCount(): number {
    return this.backends.length;
  }

  /**
   * The capabilityVersion at which a back end's pools last changed (capabilities other than the
   * volatile ones, a filter function's outcome, zone or liveness): a cache valid at version v
   * need only redo the back ends changed after v.
   */
  backendChangedAt(backendIndex: number): number {
    return (this.backends[backendIndex] as BackendRecord).changedAt;
  }

  /** The rows of a back end's pools: `[start, end)`, in enumeration order. */
  backendRows(backendIndex: number): { readonly start: number; readonly end: number } {
    const record = this.backends[backendIndex] as BackendRecord;
    return { start: record.firstRow, end: record.firstRow + record.poolNames.length };
  }

  /**
   * The distinct-value column of a top-level capability key. Every key that reports carry is
   * tracked from its first report on; a column is rebuilt (a new object) after the layout
   * changed or when old values pile up.
   */
  capabilityValueColumn(key: string): CapabilityValueColumn {
    let column = this.valueColumns.get(key);
    if (!column) {
      column = new CapabilityValueColumn(key, this.table.capabilities, this.table.size);
      this.valueColumns.set(key, column);
      this.valueColumnChanges++;
    }
    return column;
  }

  /** Changes whenever a value column object is created or replaced (so holders re-fetch them). */
  get valueColumnVersion(): number {
    return this.valueColumnChanges;
  }

  /** Number of known pools, live or not. */
  get size(): number {
    return this.table.size;
  }

  /**
   * Takes one back end's capability report. `receivedAt` is the report's timestamp (ms);
   * an older report than the last one taken is ignored, as Manila does. Pools missing from the
   * report are removed. Capabilities always change; capacity figures change only where no
   * placement is newer than the report. Returns false when the report was ignored.
   */
  report(
    backend: string,
    pools: readonly ReportedPoolCapabilities[],
    receivedAt: number,
    availabilityZone: string | null = null,
  ): boolean {
    for (const pool of pools) validatePool(backend, asCapabilityMap(pool));
    let backendIndex = this.backendByName.get(backend);
    let record = backendIndex === undefined ? undefined : this.backends[backendIndex];
    if (record && receivedAt < record.lastReportAt) return false;
    if (!record || backendIndex === undefined) {
      backendIndex = this.backends.length;
      record = {
        name: backend,
        availabilityZone,
        lastReportAt: receivedAt,
        poolNames: [],
        firstRow: this.table.size,
        live: true,
        changedAt: 0,
      };
      this.backends.push(record);
      this.backendByName.set(backend, backendIndex);
    }
    const reported = new Set(pools.map((pool) => pool.pool_name));
    const previous = new Set(record.poolNames);
    const kept = record.poolNames.filter((name) => reported.has(name));
    const added = [...reported].filter((name) => !previous.has(name));
    // Whether something a static filter may read changed: not the volatile capacity figures.
    let changed = record.changedAt === 0;
    if (kept.length !== record.poolNames.length || added.length > 0) {
      changed = true;
      const appendsAtEnd =
        kept.length === record.poolNames.length && backendIndex === this.backends.length - 1;
      record.poolNames = [...kept, ...added];
      if (appendsAtEnd) this.appendPools(record, backendIndex, added);
      else this.rebuildLayout();
    }
    if (record.availabilityZone !== availabilityZone || !record.live) {
      this.indexesStale = true;
      changed = true;
    }
    record.availabilityZone = availabilityZone;
    record.lastReportAt = receivedAt;
    record.live = true;
    this.livenessCheckDue = Math.min(this.livenessCheckDue, receivedAt + this.serviceDownTimeMs);
    for (const pool of pools) {
      const row = this.poolByHost.get(poolHost(backend, pool.pool_name)) as number;
      if (this.applyPool(row, asCapabilityMap(pool), receivedAt)) changed = true;
    }
    if (changed) record.changedAt = ++this.changeCounter;
    return true;
  }

  /** Forgets a back end at once (service deleted or disabled). */
  removeBackend(backend: string): void {
    const index = this.backendByName.get(backend);
    if (index === undefined) return;
    this.backends = this.backends.filter((record) => record.name !== backend);
    this.backendByName.clear();
    this.backends.forEach((record, i) => this.backendByName.set(record.name, i));
    this.rebuildLayout();
  }

  /**
   * Debits a placement (Manila's consume_from_share): free -= size, allocated += size,
   * provisioned += size. Idempotent by `shareId` (use the share instance or replica id), and
   * ignored when the pool's last report is not older than the placement, since that report
   * already reflects it. Returns whether the placement was applied.
   */
  consume(host: string, shareId: string, sizeGiB: number, placedAt: number): boolean {
    const pool = this.poolByHost.get(host);
    if (pool === undefined) return false;
    const columns = this.table;
    if (placedAt <= (columns.reportedAt[pool] as number)) return false;
    let ids = columns.consumedIds[pool];
    if (ids?.has(shareId)) return false;
    if (!ids) {
      ids = new Set();
      columns.consumedIds[pool] = ids;
    }
    ids.add(shareId);
    this.debit(pool, sizeGiB, placedAt);
    return true;
  }

  /** The debit itself, for a placement this process just made (also recorded for idempotence). */
  debit(pool: number, sizeGiB: number, placedAt: number): void {
    const columns = this.table;
    if (!Number.isNaN(columns.provisionedGb[pool] as number)) {
      columns.provisionedGb[pool] = (columns.provisionedGb[pool] as number) + sizeGiB;
    }
    columns.allocatedGb[pool] = (columns.allocatedGb[pool] as number) + sizeGiB;
    if (columns.freeState[pool] === FreeCapacity.Known) {
      columns.freeGb[pool] = (columns.freeGb[pool] as number) - sizeGiB;
    }
    if (placedAt > (columns.updatedAt[pool] as number)) columns.updatedAt[pool] = placedAt;
    refreshCapacityFigures(columns, pool);
  }

  /** Records a share id as placed on a pool without debiting (the debit was made by `debit`). */
  markConsumed(pool: number, shareId: string): void {
    const columns = this.table;
    let ids = columns.consumedIds[pool];
    if (!ids) {
      ids = new Set();
      columns.consumedIds[pool] = ids;
    }
    ids.add(shareId);
  }

  /** Brings liveness up to `now`: back ends silent for longer than service_down_time drop out. */
  refresh(now: number): void {
    if (now > this.livenessCheckDue) {
      let next = Infinity;
      for (const record of this.backends) {
        const live = Math.abs(now - record.lastReportAt) <= this.serviceDownTimeMs;
        if (live !== record.live) {
          record.live = live;
          record.changedAt = ++this.changeCounter;
          this.indexesStale = true;
        }
        if (live) next = Math.min(next, record.lastReportAt + this.serviceDownTimeMs);
      }
      this.livenessCheckDue = next;
    }
    if (this.indexesStale) this.rebuildIndexes();
  }

  /** Live pools in enumeration order (call `refresh` first). */
  livePools(): Int32Array {
    return this.live;
  }

  /** The zones of the live back ends (call `refresh` first). */
  liveZones(): string[] {
    return [...this.liveByZone.keys()];
  }

  /** Live pools of one availability zone, in enumeration order. */
  livePoolsInZone(zone: string): Int32Array {
    return this.liveByZone.get(zone) ?? EMPTY;
  }

  isLive(pool: number): boolean {
    return this.liveFlags[pool] === 1;
  }

  /** Index of a pool by its `host@backend#pool` string, live or not. */
  poolIndex(host: string): number | undefined {
    return this.poolByHost.get(host);
  }

  backendName(backendIndex: number): string {
    return (this.backends[backendIndex] as BackendRecord).name;
  }

  backendIndex(backend: string): number | undefined {
    return this.backendByName.get(backend);
  }

  availabilityZoneOf(pool: number): string | null {
    return (this.backends[this.table.backendIndex[pool] as number] as BackendRecord)
      .availabilityZone;
  }

  /**
   * Takes one pool's report; returns whether anything but its volatile capacity figures changed
   * (a capability, or its filter function's outcome).
   */
  private applyPool(pool: number, capabilities: CapabilityMap, receivedAt: number): boolean {
    const columns = this.table;
    columns.capabilities[pool] = capabilities;
    let changed = this.updateValueColumns(pool, capabilities);
    const filterOutcome = columns.filterConstant[pool];
    if (filterOutcome === NOT_CONSTANT) this.perRequestFilterCount--;
    columns.filterFunction[pool] = this.compile(capabilities['filter_function']);
    if (columns.goodnessFunction[pool]) this.goodnessFunctionCount--;
    columns.goodnessFunction[pool] = this.compile(capabilities['goodness_function']);
    if (columns.goodnessFunction[pool]) this.goodnessFunctionCount++;
    this.precomputeFunctions(pool);
    if (columns.filterConstant[pool] === NOT_CONSTANT) this.perRequestFilterCount++;
    if (columns.filterConstant[pool] !== filterOutcome) changed = true;
    if ((columns.updatedAt[pool] as number) > receivedAt) return changed;
    const total = capabilities['total_capacity_gb'];
    const free = capabilities['free_capacity_gb'];
    columns.totalGb[pool] = total === 'unknown' ? NaN : Number(total);
    columns.freeState[pool] =
      free === 'unknown'
        ? FreeCapacity.Unknown
        : free === null
          ? FreeCapacity.Missing
          : FreeCapacity.Known;
    columns.freeGb[pool] = columns.freeState[pool] === FreeCapacity.Known ? Number(free) : NaN;
    columns.allocatedGb[pool] = Number(capabilities['allocated_capacity_gb'] ?? 0);
    const thin = isThin(capabilities['thin_provisioning']);
    columns.thin[pool] = thin ? 1 : 0;
    const provisioned = capabilities['provisioned_capacity_gb'];
    // Manila estimates a thin pool's missing figure from its share rows; this process has none.
    columns.provisionedGb[pool] =
      provisioned === null || provisioned === undefined ? (thin ? 0 : NaN) : Number(provisioned);
    columns.reservedFraction[pool] = Number(capabilities['reserved_percentage']) / 100;
    columns.reservedSnapshotFraction[pool] =
      Number(capabilities['reserved_snapshot_percentage']) / 100;
    columns.reservedExtendFraction[pool] =
      Number(capabilities['reserved_share_extend_percentage']) / 100;
    const ratio = capabilities['max_over_subscription_ratio'];
    columns.maxOverSubscriptionRatio[pool] =
      ratio === null || ratio === undefined ? this.defaultMaxOverSubscriptionRatio : Number(ratio);
    columns.replicationDomain[pool] =
      (capabilities['replication_domain'] as string | null | undefined) ?? null;
    columns.replicationType[pool] =
      (capabilities['replication_type'] as string | null | undefined) ?? null;
    columns.multipleSubnetSupport[pool] = capabilities['share_server_multiple_subnet_support']
      ? 1
      : 0;
    columns.reportedAt[pool] = receivedAt;
    columns.updatedAt[pool] = receivedAt;
    columns.consumedIds[pool] = undefined;
    refreshCapacityFigures(columns, pool);
    return changed;
  }

  /** Returns whether a capability other than the volatile ones changed (or may have). */
  private updateValueColumns(pool: number, capabilities: CapabilityMap): boolean {
    let changed = false;
    for (const key in capabilities) {
      if (this.valueColumns.has(key)) continue;
      this.capabilityValueColumn(key);
      if (!VOLATILE_CAPABILITIES.has(key)) changed = true;
    }
    const limit = 2 * this.table.size + 64;
    for (const [key, column] of this.valueColumns) {
      const volatile = VOLATILE_CAPABILITIES.has(key);
      if (column.distinctValues > limit) {
        this.valueColumns.set(
          key,
          new CapabilityValueColumn(key, this.table.capabilities, this.table.size),
        );
        this.valueColumnChanges++;
        if (!volatile) changed = true;
      } else {
        const before = column.ids[pool];
        column.update(pool, capabilities);
        if (!volatile && column.ids[pool] !== before) changed = true;
      }
    }
    return changed;
  }

  private compile(source: unknown): CompiledExpression | null {
    if (source === null || source === undefined) return null;
    return this.expressions.get(String(source));
  }

  /** A function that reads only `capabilities.*` gives the same answer until the next report. */
  private precomputeFunctions(pool: number): void {
    const columns = this.table;
    const scope = new PoolExpressionScope(columns, null, null);
    scope.pool = pool;
    const filter = columns.filterFunction[pool];
    if (!filter) columns.filterConstant[pool] = 1;
    else if (!readsOnlyCapabilities(filter)) columns.filterConstant[pool] = NOT_CONSTANT;
    else
      columns.filterConstant[pool] = evaluateOr(() => filterPasses(filter.evaluate(scope)), false)
        ? 1
        : 0;
    const goodness = columns.goodnessFunction[pool];
    if (!goodness) columns.goodnessConstant[pool] = 0;
    else if (!readsOnlyCapabilities(goodness)) columns.goodnessConstant[pool] = NaN;
    else
      columns.goodnessConstant[pool] = evaluateOr(
        () => goodnessRating(goodness.evaluate(scope)),
        0,
      );
  }

  /** The common case of a new back end (or new pools of the last one): rows go at the end. */
  private appendPools(record: BackendRecord, backendIndex: number, names: readonly string[]): void {
    let table = this.table;
    const needed = table.size + names.length;
    if (needed > table.capacity)
      table = this.table = table.grownTo(Math.max(needed, table.capacity * 2, 16));
    // New rows read as missing until their report arrives, right after this.
    for (const column of this.valueColumns.values()) column.ensureRows(table.capacity);
    for (const name of names) {
      const row = table.size++;
      const host = poolHost(record.name, name);
      table.host[row] = host;
      table.poolName[row] = name;
      table.backendIndex[row] = backendIndex;
      this.poolByHost.set(host, row);
    }
    this.indexesStale = true;
  }

  private rebuildLayout(): void {
    this.valueColumns.clear();
    this.valueColumnChanges++;
    const old = this.table;
    const oldIndex = new Map(this.poolByHost);
    const size = this.backends.reduce((sum, record) => sum + record.poolNames.length, 0);
    const next = new PoolColumns(size);
    next.size = size;
    this.poolByHost.clear();
    let row = 0;
    this.backends.forEach((record, backendIndex) => {
      record.firstRow = row;
      for (const name of record.poolNames) {
        const host = poolHost(record.name, name);
        const previous = oldIndex.get(host);
        if (previous !== undefined) old.copyRowTo(next, previous, row);
        else {
          next.host[row] = host;
          next.poolName[row] = name;
        }
        next.backendIndex[row] = backendIndex;
        this.poolByHost.set(host, row);
        row++;
      }
    });
    this.table = next;
    this.goodnessFunctionCount = next.goodnessFunction.filter(
      (expression) => expression !== null,
    ).length;
    this.perRequestFilterCount = next.filterConstant
      .subarray(0, size)
      .filter((constant) => constant === NOT_CONSTANT).length;
    this.layoutChanges++;
    this.changeCounter++;
    this.indexesStale = true;
  }

  private rebuildIndexes(): void {
    const columns = this.table;
    const live: number[] = [];
    const byZone = new Map<string, number[]>();
    this.liveFlags = new Uint8Array(columns.size);
    for (let pool = 0; pool < columns.size; pool++) {
      const record = this.backends[columns.backendIndex[pool] as number] as BackendRecord;
      if (!record.live) continue;
      this.liveFlags[pool] = 1;
      live.push(pool);
      if (record.availabilityZone !== null) {
        let zone = byZone.get(record.availabilityZone);
        if (!zone) byZone.set(record.availabilityZone, (zone = []));
        zone.push(pool);
      }
    }
    this.live = Int32Array.from(live);
    this.liveByZone = new Map([...byZone].map(([zone, pools]) => [zone, Int32Array.from(pools)]));
    this.indexesStale = false;
  }
}

const EMPTY = new Int32Array(0);

const readsOnlyCapabilities = (expression: CompiledExpression): boolean =>
  [...expression.dictionaries].every((dictionary) => dictionary === 'capabilities');

/** Manila catches every exception a function raises: the pool fails, or rates 0. */
const evaluateOr = <T>(evaluate: () => T, onError: T): T => {
  try {
    return evaluate();
  } catch {
    return onError;
  }
};

const validatePool = (backend: string, pool: CapabilityMap): void => {
  for (const key of REQUIRED_KEYS) {
    if (!(key in pool))
      throw new InvalidPoolReportError(`Pool report from ${backend} lacks ${key}`);
  }
  const total = pool['total_capacity_gb'];
  if (total !== 'unknown' && typeof total !== 'number') {
    throw new InvalidPoolReportError(
      `Pool ${String(pool['pool_name'])} of ${backend}: total_capacity_gb must be a number`,
    );
  }
};
