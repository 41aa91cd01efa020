import { afterMicrotasks } from '../after-microtasks.js';

/** What one request of a batch came to: its own result, or its own failure. */
export type Outcome<Result> =
  { readonly ok: true; readonly result: Result } | { readonly ok: false; readonly error: unknown };

interface Pending<Request, Result> {
  readonly request: Request;
  readonly resolve: (result: Result) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Gathers the requests submitted until the microtasks run out and hands them to `commit`
 * together, which answers each with its own outcome. Requests submitted by work resumed
 * together (workers woken by the same append, the callers of the last batch, a `Promise.all`,
 * the reactions to the streams of a page) so share one transaction, and the cost of committing
 * it, instead of paying one each. When `commit` itself throws (the transaction as a whole
 * failed), every request of the batch fails with that error.
 */
export class GroupCommit<Request, Result> {
  private pending: Pending<Request, Result>[] = [];
  private scheduled: Promise<void> | undefined;

  constructor(private readonly commit: (requests: readonly Request[]) => Outcome<Result>[]) {}

  submit(request: Request): Promise<Result> {
    return new Promise((resolve, reject) => {
      this.pending.push({ request, resolve, reject });
      this.scheduled ??= new Promise((done) =>
        afterMicrotasks(() => {
          this.scheduled = undefined;
          this.flush();
          done();
        }),
      );
    });
  }

  /**
   * Commits the pending batch now when one of its requests matches: a reader that must see
   * them (a command loading a stream with an append pending) need not wait for the batch to close.
   */
  commitNowIf(matches: (request: Request) => boolean): void {
    if (this.pending.some((pending) => matches(pending.request))) this.flush();
  }

  /** Resolves once what was submitted before the call is committed (or has failed). */
  async drain(): Promise<void> {
    await this.scheduled;
  }

  private flush(): void {
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    let outcomes: Outcome<Result>[];
    try {
      outcomes = this.commit(batch.map((pending) => pending.request));
    } catch (error) {
      for (const pending of batch) pending.reject(error);
      return;
    }
    batch.forEach((pending, index) => {
      const outcome = outcomes[index] as Outcome<Result>;
      if (outcome.ok) pending.resolve(outcome.result);
      else pending.reject(outcome.error);
    });
  }
}
