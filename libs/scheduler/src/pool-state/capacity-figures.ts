import {
  capacityVariant,
  FreeCapacity,
  type PoolColumns,
  type ReserveKind,
} from './pool-columns.js';

const reservesOf = (columns: PoolColumns): readonly Float64Array[] => [
  columns.reservedFraction,
  columns.reservedSnapshotFraction,
  columns.reservedExtendFraction,
];

/**
 * Recomputes a pool's precomputed capacity figures from its live state (after a report or a
 * placement), so CapacityFilter and CapacityWeigher read one value per pool instead of redoing
 * the arithmetic on every request.
 */
export const refreshCapacityFigures = (columns: PoolColumns, pool: number): void => {
  const reserves = reservesOf(columns);
  for (let kind = 0; kind < reserves.length; kind++) {
    const reserved = (reserves[kind] as Float64Array)[pool] as number;
    for (const thinLogic of [false, true]) {
      const variant = capacityVariant(kind as ReserveKind, thinLogic);
      const thin = thinLogic && columns.thin[pool] === 1;
      setFitBounds(columns, pool, variant, reserved, thin);
      (columns.capacityWeight[variant] as Float64Array)[pool] = capacityWeight(
        columns,
        pool,
        reserved,
        thin,
      );
    }
  }
};

/**
 * CapacityFilter's answer as two bounds on the share size: up to `fitsUpTo` the pool surely
 * passes, above `failsAbove` it surely fails. Between them (and where a bound is NaN) the filter
 * does the exact arithmetic. Only the thin ratio check, (provisioned + size) / total <= ratio,
 * leaves such a band, a margin far wider than the rounding of that division.
 */
const setFitBounds = (
  columns: PoolColumns,
  pool: number,
  variant: number,
  reserved: number,
  thin: boolean,
): void => {
  let low = -Infinity;
  let high = -Infinity;
  const state = columns.freeState[pool];
  const freeSpace = columns.freeGb[pool] as number;
  const total = columns.totalGb[pool] as number;
  if (state === FreeCapacity.Unknown) low = high = Infinity;
  else if (state === FreeCapacity.Missing) low = high = -Infinity;
  else if (Number.isNaN(total)) low = high = reserved === 0 ? freeSpace : -Infinity;
  else if (total > 0) {
    const free = Math.floor(freeSpace - total * reserved);
    if (!thin) low = high = free;
    else {
      const ratio = columns.maxOverSubscriptionRatio[pool] as number;
      const provisioned = columns.provisionedGb[pool] as number;
      if (!(ratio < 1)) {
        const most = free * ratio;
        const room = total * ratio - provisioned;
        const margin = 1e-9 * (Math.abs(total * ratio) + Math.abs(provisioned) + 1);
        low = Math.min(most, room - margin);
        high = Math.min(most, room + margin);
      }
    }
  }
  (columns.fitsUpTo[variant] as Float64Array)[pool] = low;
  (columns.failsAbove[variant] as Float64Array)[pool] = high;
};

/** CapacityWeigher's raw weight, NaN for an 'unknown' capacity (the weigher places those). */
const capacityWeight = (
  columns: PoolColumns,
  pool: number,
  reserved: number,
  thin: boolean,
): number => {
  const total = columns.totalGb[pool] as number;
  if (Number.isNaN(total) || columns.freeState[pool] === FreeCapacity.Unknown) return NaN;
  return thin
    ? Math.floor(
        total * (columns.maxOverSubscriptionRatio[pool] as number) -
          (columns.provisionedGb[pool] as number) -
          total * reserved,
      )
    : Math.floor((columns.freeGb[pool] as number) - total * reserved);
};
