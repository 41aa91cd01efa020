import type { PoolCapabilities } from '#hawser/drivers';

export interface RoomQuestion {
  readonly sizeGiB: number;
  /** GiB accepted on the pool that its figures do not show yet. */
  readonly reservedGiB: number;
  /** Manila's use_thin_logic for the share's type. */
  readonly thinLogic: boolean;
  /** A share created from a snapshot keeps reserved_snapshot_percentage free instead. */
  readonly fromSnapshot: boolean;
}

/**
 * Manila's CapacityFilter on the node's own figures, with the placements not yet reported
 * debited as consume_from_share would (free and provisioned grow by their size). Returns why
 * the share does not fit, or null when it does; unknown capacities pass, as in Manila.
 */
export const lackOfRoom = (pool: PoolCapabilities, question: RoomQuestion): string | null => {
  const { sizeGiB, reservedGiB } = question;
  const total = pool.total_capacity_gb;
  const reported = pool.free_capacity_gb;
  if (total === 'unknown' || reported === 'unknown') return null;
  const percentage = question.fromSnapshot
    ? pool.reserved_snapshot_percentage
    : pool.reserved_percentage;
  const free = Math.floor(reported - reservedGiB - total * (percentage / 100));
  const pending = `${reservedGiB} GiB placed here and not yet reported`;
  if (total <= 0) return `Pool ${pool.pool_name} reports no capacity.`;
  if (question.thinLogic && pool.thin_provisioning) {
    const ratio = pool.max_over_subscription_ratio;
    const provisioned = pool.provisioned_capacity_gb + reservedGiB + sizeGiB;
    if (ratio >= 1 && provisioned / total <= ratio && free * ratio >= sizeGiB) return null;
    return (
      `Pool ${pool.pool_name} cannot hold ${sizeGiB} GiB: ${provisioned} GiB provisioned ` +
      `(${pending}) would exceed ${total} GiB x ${ratio}.`
    );
  }
  if (free >= sizeGiB) return null;
  return (
    `Pool ${pool.pool_name} cannot hold ${sizeGiB} GiB: ${Math.max(free, 0)} GiB free ` +
    `(${pending}, ${percentage}% reserved).`
  );
};
