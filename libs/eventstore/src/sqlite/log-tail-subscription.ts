import type { RecordedEvent, Subscription } from '../event-store.port.js';

/** The reads a subscription needs from the log; each is a short read, no transaction held. */
export interface LogTail {
  /** Position of the last committed event (0 when the log is empty). */
  head(): number;
  /** The matching events with `after < position <= upTo`, in log order. */
  window(after: number, upTo: number): RecordedEvent[];
}

export interface LogTailOptions {
  readonly after: number;
  /** How long to sleep when caught up before looking for other processes' appends. */
  readonly pollIntervalMs: number;
  /** Positions read per query while catching up. */
  readonly windowSize: number;
  readonly onClose: (subscription: LogTailSubscription) => void;
}

/**
 * Catch-up subscription over a log whose positions become visible in order (SQLite has one
 * writer at a time, so every position up to the head is committed). It reads position windows
 * rather than "the next N matches", so a selective filter never rescans the same stretch.
 * When caught up it sleeps until `wake()` (an append in this process) or the poll interval.
 */
export class LogTailSubscription implements Subscription {
  private after: number;
  private closed = false;
  private started = false;
  private wakeUp: (() => void) | undefined;

  constructor(
    private readonly tail: LogTail,
    private readonly options: LogTailOptions,
  ) {
    this.after = options.after;
  }

  /** Ends a sleep early: new events may be there. */
  wake(): void {
    const wakeUp = this.wakeUp;
    this.wakeUp = undefined;
    wakeUp?.();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.options.onClose(this);
    this.wake();
  }

  [Symbol.asyncIterator](): AsyncIterator<RecordedEvent> {
    if (this.started) throw new Error('a subscription can be iterated only once');
    this.started = true;
    return this.run();
  }

  private async *run(): AsyncGenerator<RecordedEvent> {
    try {
      while (!this.closed) {
        const head = this.tail.head();
        if (head <= this.after) {
          await this.sleep();
          continue;
        }
        const upTo = Math.min(head, this.after + this.options.windowSize);
        for (const event of this.tail.window(this.after, upTo)) {
          if (this.closed) return;
          yield event;
        }
        this.after = upTo;
        // Catching up on a long log would otherwise run on microtasks alone and starve I/O.
        await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      // Also reached when the consumer leaves the loop early (break, throw).
      await this.close();
    }
  }

  private sleep(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wakeUp = undefined;
        resolve();
      }, this.options.pollIntervalMs);
      this.wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
