import type { EventStore, Subscription } from '#hawser/eventstore';

/**
 * Tells log readers that something was appended, so a caught-up reader wakes at once instead
 * of polling. It follows the store's own subscription from the head; the readers still poll
 * (their wait has a time-out) in case the subscription stops.
 */
export class AppendSignal {
  private count = 0;
  private readonly waiters = new Set<() => void>();
  private subscription: Subscription | undefined;
  private following: Promise<void> | undefined;

  constructor(private readonly store: EventStore) {}

  async open(): Promise<void> {
    if (this.subscription) return;
    const subscription = this.store.subscribeToAll({ after: await this.store.headPosition() });
    this.subscription = subscription;
    this.following = this.follow(subscription);
  }

  /** Changes whenever something may have been appended; pass it to `wait`. */
  get version(): number {
    return this.count;
  }

  /** Wakes every waiter (an append, a stop, or a reader who wants the others to look now). */
  notify(): void {
    this.count += 1;
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const wake of waiters) wake();
  }

  /** Resolves at the next notification after `version` was read, or after `timeoutMs`. */
  wait(version: number, timeoutMs: number): Promise<void> {
    if (version !== this.count) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, timeoutMs);
      this.waiters.add(wake);
    });
  }

  async close(): Promise<void> {
    const subscription = this.subscription;
    this.subscription = undefined;
    await subscription?.close();
    await this.following;
    this.notify();
  }

  private async follow(subscription: Subscription): Promise<void> {
    try {
      for await (const _event of subscription) this.notify();
    } catch {
      // The readers' polling takes over; the error itself surfaces in their reads.
    }
  }
}
