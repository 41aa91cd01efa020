import { createHash } from 'node:crypto';

/** Nearest-rank percentile: the ceil(q * n / 100)-th smallest value (1-based, integer arithmetic). */
export const percentile = (sorted: ArrayLike<number>, q: number): number => {
  if (sorted.length === 0) return 0;
  const rank = Math.max(1, Math.ceil((q * sorted.length) / 100));
  return sorted[rank - 1] as number;
};

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

/** The kit's decisions_sha256: chosen hosts joined by "\n", '' for a request without a placement. */
export const decisionsHash = (hosts: readonly (string | null)[]): string =>
  createHash('sha256')
    .update(hosts.map((host) => host ?? '').join('\n'), 'utf8')
    .digest('hex');

export const round = (value: number, digits: number): number => Number(value.toFixed(digits));
