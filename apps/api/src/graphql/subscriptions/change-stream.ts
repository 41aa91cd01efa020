/**
 * An async iterator fed by pushes, for a GraphQL subscription: values wait in order until the
 * client takes them; `return()` (the client unsubscribed or went away) ends it at once, even
 * while a `next()` is waiting, and runs `onClose` to stop the pushes.
 */
export class ChangeStream<T> implements AsyncIterableIterator<T> {
  private readonly queued: T[] = [];
  private waiting: ((result: IteratorResult<T>) => void) | undefined;
  private closed = false;

  constructor(private readonly onClose: () => void) {}

  push(value: T): void {
    if (this.closed) return;
    const waiting = this.waiting;
    if (waiting) {
      this.waiting = undefined;
      waiting({ value, done: false });
    } else {
      this.queued.push(value);
    }
  }

  next(): Promise<IteratorResult<T>> {
    const value = this.queued.shift();
    if (value !== undefined) return Promise.resolve({ value, done: false });
    if (this.closed) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.waiting = resolve));
  }

  return(): Promise<IteratorResult<T>> {
    if (!this.closed) {
      this.closed = true;
      this.queued.length = 0;
      this.onClose();
      this.waiting?.({ value: undefined, done: true });
      this.waiting = undefined;
    }
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }
}
