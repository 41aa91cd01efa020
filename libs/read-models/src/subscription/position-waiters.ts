interface Waiter {
  readonly position: number;
  readonly resolve: (reached: boolean) => void;
  readonly timer: NodeJS.Timeout;
}

/**
 * Promises that resolve once the subscribers have examined the log up to a position:
 * true when reached, false on time-out (callers decide whether a stale read is acceptable).
 */
export class PositionWaiters {
  private readonly waiters = new Set<Waiter>();

  /** `reached()` is how far every subscriber has examined the log. */
  constructor(private readonly reached: () => number) {}

  wait(position: number, timeoutMs: number): Promise<boolean> {
    if (this.reached() >= position) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        position,
        resolve,
        timer: setTimeout(() => {
          this.waiters.delete(waiter);
          resolve(this.reached() >= position);
        }, timeoutMs),
      };
      this.waiters.add(waiter);
    });
  }

  /** Call after any subscriber has moved on. */
  progressed(): void {
    if (this.waiters.size === 0) return;
    const reached = this.reached();
    for (const waiter of this.waiters) {
      if (waiter.position <= reached) {
        clearTimeout(waiter.timer);
        this.waiters.delete(waiter);
        waiter.resolve(true);
      }
    }
  }

  /** Resolves every pending wait with whether it was reached (on stop). */
  releaseAll(): void {
    const reached = this.reached();
    for (const waiter of this.waiters) {
      clearTimeout(waiter.timer);
      waiter.resolve(waiter.position <= reached);
    }
    this.waiters.clear();
  }
}
