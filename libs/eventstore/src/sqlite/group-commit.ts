/** What one request of a batch came to: its own result, or its own failure. */
export type Outcome<Result> =
  { readonly ok: true; readonly result: Result } | { readonly ok: false; readonly error: unknown };

interface Pending<Request, Result> {
  readonly request: Request;
  readonly resolve: (result: Result) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Gathers the requests submitted during one turn of the event loop and hands them to `commit`
 * together, which answers each with its own outcome. Requests that arrive together (concurrent
 * HTTP requests, workers woken by the same append) so share one transaction, and the cost of
 * committing it, instead of paying one each. When `commit` itself throws (the transaction as
 * a whole failed), every request of the batch fails with that error.
 */
export class GroupCommit<Request, Result> {
  private pending: Pending<Request, Result>[] = [];
  private scheduled: Promise<void> | undefined;

  constructor(private readonly commit: (requests: readonly Request[]) => Outcome<Result>[]) {}

  submit(request: Request): Promise<Result> {
    return new Promise((resolve, reject) => {
      this.pending.push({ request, resolve, reject });
      // setImmediate runs after the I/O callbacks of this turn: every request they submitted
      // joins the batch.
      this.scheduled ??= new Promise((done) =>
        setImmediate(() => {
          this.flush();
          done();
        }),
      );
    });
  }

  /** Resolves once what was submitted before the call is committed (or has failed). */
  async drain(): Promise<void> {
    await this.scheduled;
  }

  private flush(): void {
    const batch = this.pending;
    this.pending = [];
    this.scheduled = undefined;
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
