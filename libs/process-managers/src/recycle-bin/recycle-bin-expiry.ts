import type { CommandContext, CommandHandler } from '#hawser/application';
import { derivedId, shareDecider, shareStream } from '#hawser/domain';
import { SHARES, type ShareRecord } from '#hawser/projections';
import type { DocumentStore } from '#hawser/read-models';

export interface RecycleBinExpiryOptions {
  /** How often the recycle bin is looked at; default 30 s. */
  readonly pollIntervalMs?: number;
  readonly clock?: () => Date;
  /** Told about a pass that failed; the next pass tries again. */
  readonly onError?: (error: unknown) => void;
}

/**
 * Deletes the shares whose time in the recycle bin has passed (Manila's delete_expired_share).
 * The deadline is a fact of the share's stream (ShareSoftDeleted) that the shares read model
 * indexes, so nothing of the timer lives only in memory: a pass at start deletes what fell due
 * while no process ran, then one every poll interval. The deletion is the share decider's
 * (DeleteExpiredShare), which decides nothing for a share restored, not yet due or already being
 * deleted, so a pass repeated after a crash, or two processes passing at once, deletes once.
 */
export class RecycleBinExpiry {
  private timer: NodeJS.Timeout | undefined;
  private pass: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly commands: CommandHandler,
    private readonly documents: DocumentStore,
    private readonly options: RecycleBinExpiryOptions = {},
  ) {}

  start(): void {
    this.stopped = false;
    const run = () => {
      this.pass = this.deleteDue()
        .then(() => undefined)
        .catch((error: unknown) => this.options.onError?.(error))
        .finally(() => {
          if (this.stopped) return;
          this.timer = setTimeout(run, this.options.pollIntervalMs ?? 30_000);
          // A process that forgets to stop the expiry is not kept alive by it.
          this.timer.unref();
        });
    };
    run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.pass;
  }

  /** One pass: every share due for deletion is asked to be deleted; returns how many were. */
  async deleteDue(): Promise<number> {
    const now = (this.options.clock?.() ?? new Date()).toISOString();
    const due = await this.documents.find<ShareRecord>(
      SHARES,
      { scheduled_to_be_deleted_at: { $lte: now } },
      { sort: [['scheduled_to_be_deleted_at', 1]] },
    );
    let deleted = 0;
    for (const share of due) {
      if (this.stopped) break;
      const result = await this.commands.handle(
        shareDecider,
        shareStream(share.id),
        { type: 'DeleteExpiredShare', now },
        this.context(share),
        { retryOnConflict: 20 },
      );
      if (result.events.length > 0) deleted += 1;
    }
    return deleted;
  }

  /** The command id derives from the share and its deadline: one deletion per stay in the bin. */
  private context(share: ShareRecord): CommandContext {
    const commandId = derivedId(share.id, `recycle-bin-expiry-${share.scheduled_to_be_deleted_at}`);
    return {
      commandId,
      correlationId: commandId,
      causationId: commandId,
      userId: 'recycle-bin',
      projectId: share.project_id,
    };
  }
}
