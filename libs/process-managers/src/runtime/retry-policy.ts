/** How a failing event is retried before it is parked. */
export interface RetryPolicy {
  /** Tries in all, the first included (at least 1). */
  readonly attempts: number;
  /** Delay after the first failure; doubled after each further one. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  attempts: 5,
  baseDelayMs: 200,
  maxDelayMs: 30_000,
};

/** Exponential back-off: the delay before the next try after `failures` failed tries. */
export function backOffDelay(policy: RetryPolicy, failures: number): number {
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, failures - 1));
}
