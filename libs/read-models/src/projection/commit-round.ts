import type { CheckpointedWrites, DocumentStore } from '../document-store.port.js';

interface Submitted {
  readonly batch: CheckpointedWrites;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/** One worker's part in a round: it commits its batch, or leaves without one. */
export interface RoundTicket {
  commit(batch: CheckpointedWrites): Promise<void>;
  /** Done with the batch (committed, failed or nothing to commit); idempotent. */
  leave(): void;
}

/**
 * Commits the batches of the live projections of one store together: every worker that has
 * begun a batch joins the round, and once each has submitted its batch or left without one,
 * all submitted batches go to `commitAll` as one transaction, each keeping its own checkpoint
 * and compare-and-set and failing alone. Workers woken by the same append so pay for one
 * commit instead of one each; a worker working alone commits alone, without waiting.
 */
export class CommitRound {
  private working = 0;
  private submitted: Submitted[] = [];

  constructor(private readonly store: DocumentStore) {}

  join(): RoundTicket {
    this.working += 1;
    let inRound = true;
    const done = (): void => {
      if (!inRound) return;
      inRound = false;
      this.working -= 1;
      if (this.working === 0) void this.flush();
    };
    return {
      commit: (batch) =>
        new Promise<void>((resolve, reject) => {
          if (!inRound) throw new Error('a batch commits once per round');
          this.submitted.push({ batch, resolve, reject });
          done();
        }),
      leave: done,
    };
  }

  private async flush(): Promise<void> {
    const round = this.submitted;
    this.submitted = [];
    if (round.length === 0) return;
    try {
      const outcomes = await this.store.commitAll(round.map((submitted) => submitted.batch));
      round.forEach((submitted, index) => {
        const outcome = outcomes[index];
        if (outcome?.ok) submitted.resolve();
        else submitted.reject(outcome ? outcome.error : new Error('no outcome for a batch'));
      });
    } catch (error) {
      for (const submitted of round) submitted.reject(error);
    }
  }
}
