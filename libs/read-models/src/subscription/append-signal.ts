import type { EventStore, Subscription } from '#hawser/eventstore';
import { onePerStore } from './one-per-store.js';

/**
 * Tells log readers that something was appended, so a caught-up reader wakes at once instead
 * of polling. Every signal of one store in a process hears the same subscription of the store
 * (`AppendSource`), from the head; the readers still poll (their wait has a time-out) in case
 * it stops.
 */
export class AppendSignal {
  private count = 0;
  private readonly waiters = new Set<() => void>();
  private opened = false;

  constructor(private readonly store: EventStore) {}

  async open(): Promise<void> {
    if (this.opened) return;
    this.opened = true;
    await AppendSource.of(this.store).add(this);
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
    if (this.opened) await AppendSource.of(this.store).remove(this);
    this.opened = false;
    this.notify();
  }
}

/**
 * One subscription of a store per process, open while any signal is, telling every open signal
 * of each append: the store decodes each appended event once for all of them, not once per
 * runner.
 */
class AppendSource {
  private readonly signals = new Set<AppendSignal>();
  private subscription: Subscription | undefined;
  private following: Promise<void> | undefined;

  private constructor(private readonly store: EventStore) {}

  static readonly of: (store: EventStore) => AppendSource = onePerStore(
    (store) => new AppendSource(store),
  );

  async add(signal: AppendSignal): Promise<void> {
    this.signals.add(signal);
    if (this.subscription) return;
    const subscription = this.store.subscribeToAll({ after: await this.store.headPosition() });
    if (this.subscription) {
      // Another signal opened it while the head was read.
      await subscription.close();
      return;
    }
    this.subscription = subscription;
    this.following = this.follow(subscription);
  }

  async remove(signal: AppendSignal): Promise<void> {
    this.signals.delete(signal);
    if (this.signals.size > 0) return;
    const subscription = this.subscription;
    const following = this.following;
    this.subscription = undefined;
    this.following = undefined;
    await subscription?.close();
    await following;
  }

  private async follow(subscription: Subscription): Promise<void> {
    try {
      for await (const _event of subscription) {
        for (const signal of this.signals) signal.notify();
      }
    } catch {
      // The readers' polling takes over; the error itself surfaces in their reads.
    }
  }
}
