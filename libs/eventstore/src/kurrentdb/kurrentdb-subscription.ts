import type { AllStreamResolvedEvent, AllStreamSubscription } from '@kurrent/kurrentdb-client';
import type { RecordedEvent, Subscription } from '../event-store.port.js';

/**
 * Adapts the client's $all subscription (a Node stream) to the port. Closing cancels the gRPC
 * call; the consumer's pending `next()` is answered at once rather than when (or whether) the
 * cancelled stream ends.
 */
export class KurrentDbSubscription implements Subscription {
  private closed = false;
  private started = false;
  private readonly whenClosed: Promise<IteratorResult<AllStreamResolvedEvent>>;
  private signalClosed: () => void = () => undefined;

  constructor(
    private readonly source: AllStreamSubscription,
    /** Maps a server event to the port's, or undefined to skip it (filtered, system). */
    private readonly accept: (resolved: AllStreamResolvedEvent) => RecordedEvent | undefined,
    private readonly onClose: (subscription: KurrentDbSubscription) => void,
  ) {
    this.whenClosed = new Promise((resolve) => {
      this.signalClosed = () => resolve({ done: true, value: undefined });
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.onClose(this);
    this.signalClosed();
    await this.source.unsubscribe();
    this.source.destroy();
  }

  [Symbol.asyncIterator](): AsyncIterator<RecordedEvent> {
    if (this.started) throw new Error('a subscription can be iterated only once');
    this.started = true;
    return this.run();
  }

  private async *run(): AsyncGenerator<RecordedEvent> {
    const events = this.source[Symbol.asyncIterator]();
    try {
      while (!this.closed) {
        const pending = events.next();
        // Once closed, the cancelled stream may still reject this read: nobody awaits it then.
        pending.catch(() => undefined);
        const next = await Promise.race([pending, this.whenClosed]);
        if (next.done === true) return;
        const event = this.accept(next.value);
        if (event !== undefined && !this.closed) yield event;
      }
    } finally {
      await this.close();
    }
  }
}
