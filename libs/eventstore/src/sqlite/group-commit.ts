import { afterMicrotasks } from '../after-microtasks.js';

/** What one request of a batch came to: its own result, or its own failure. */
export type Outcome<Result> =
  { readonly ok: true; readonly result: Result } | { readonly ok: false; readonly error: unknown };

/**
 * How `commit` treats a write lock another connection holds: `defer` answers `LOCK_HELD` at
 * once, having done nothing; `fail` throws the store's busy failure at once; `block` waits for
 * the lock as the connection is set to (its busy time-out), holding up the thread meanwhile.
 */
export type LockPolicy = 'defer' | 'fail' | 'block';

/** `commit`'s answer when it was asked to defer and another connection held the write lock. */
export const LOCK_HELD = Symbol('lock held');

export type Commit<Request, Result> = (
  requests: readonly Request[],
  lock: LockPolicy,
) => Outcome<Result>[] | typeof LOCK_HELD;

interface Pending<Request, Result> {
  readonly request: Request;
  readonly resolve: (result: Result) => void;
  readonly reject: (error: unknown) => void;
}

/** Between two tries for a lock another process holds: its transactions last well under this. */
const LOCK_RETRY_MS = 1;

/**
 * Gathers the requests submitted until the microtasks run out and hands them to `commit`
 * together, which answers each with its own outcome. Requests submitted by work resumed
 * together (workers woken by the same append, the callers of the last batch, a `Promise.all`,
 * the reactions to the streams of a page) so share one transaction, and the cost of committing
 * it, instead of paying one each. When `commit` itself throws (the transaction as a whole
 * failed), every request of the batch fails with that error.
 *
 * While another process holds the write lock the batch waits on a timer, not in SQLite's busy
 * handler: that one sleeps on the thread, and every request the process serves would wait with
 * it. Requests submitted meanwhile join the waiting batch. Past `lockWaitMs` the batch fails as
 * busy, as SQLite's own time-out would fail it.
 */
export class GroupCommit<Request, Result> {
  private pending: Pending<Request, Result>[] = [];
  private scheduled: Promise<void> | undefined;

  constructor(
    private readonly commit: Commit<Request, Result>,
    private readonly lockWaitMs: number,
  ) {}

  submit(request: Request): Promise<Result> {
    return new Promise((resolve, reject) => {
      this.pending.push({ request, resolve, reject });
      this.scheduled ??= new Promise((done) =>
        afterMicrotasks(() => this.flushWhenLockFree(performance.now(), done)),
      );
    });
  }

  /**
   * Commits the pending batch now when one of its requests matches: a reader that must see
   * them (a command loading a stream with an append pending) need not wait for the batch to
   * close, nor for a lock another process holds: it waits for the lock on the thread.
   */
  commitNowIf(matches: (request: Request) => boolean): void {
    if (this.pending.some((pending) => matches(pending.request))) this.flush('block');
  }

  /** Resolves once what was submitted before the call is committed (or has failed). */
  async drain(): Promise<void> {
    await this.scheduled;
  }

  private flushWhenLockFree(firstTry: number, done: () => void): void {
    const lock = performance.now() - firstTry >= this.lockWaitMs ? 'fail' : 'defer';
    if (this.flush(lock)) {
      this.scheduled = undefined;
      done();
    } else setTimeout(() => this.flushWhenLockFree(firstTry, done), LOCK_RETRY_MS);
  }

  /** False when the lock was held and the batch stays pending. */
  private flush(lock: LockPolicy): boolean {
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return true;
    let outcomes: Outcome<Result>[] | typeof LOCK_HELD;
    try {
      outcomes = this.commit(
        batch.map((pending) => pending.request),
        lock,
      );
    } catch (error) {
      for (const pending of batch) pending.reject(error);
      return true;
    }
    if (outcomes === LOCK_HELD) {
      this.pending = batch.concat(this.pending);
      return false;
    }
    const answered = outcomes;
    batch.forEach((pending, index) => {
      const outcome = answered[index] as Outcome<Result>;
      if (outcome.ok) pending.resolve(outcome.result);
      else pending.reject(outcome.error);
    });
    return true;
  }
}
