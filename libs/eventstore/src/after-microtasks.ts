/**
 * Runs `work` once the microtask queue is empty: a tick queued by a microtask runs only after
 * every microtask queued so far, so all the work resumed together (callers woken by one
 * promise, a `Promise.all`) has done what it will before it waits for I/O or a timer.
 */
export const afterMicrotasks = (work: () => void): void =>
  queueMicrotask(() => process.nextTick(work));
