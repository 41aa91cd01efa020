import type { EventStore, RecordedEvent } from '#hawser/eventstore';
import type { FoldedState } from './aggregate-snapshots.js';

/** Streams whose latest state is kept, the least recently used dropped first. */
const RECENT_STREAMS = 1_000;

/**
 * What a state is folded with. Deciders that share it (one wrapping the share's decider to
 * refuse some commands) share the states it folds; any other fold of the stream gets nothing.
 */
export interface Fold {
  readonly initialState: unknown;
  readonly evolve: unknown;
}

interface Recent extends Fold {
  readonly folded: FoldedState<unknown>;
}

/**
 * The latest state this process folded of the streams it used last, for deciders without a
 * snapshot policy (a share's stream: short, but loaded by every reaction to it). A load reads
 * only the events after it instead of the whole stream, once it has checked the log still holds
 * the event the state was folded up to; a command that retries is decided on it unread, its
 * append expecting its revision (`HandleOptions.retryOnConflict`). States are immutable, so
 * sharing one is safe.
 */
export class RecentStates {
  private readonly recent = new Map<string, Recent>();

  constructor(private readonly store: EventStore) {}

  /**
   * The remembered state of the stream as it is, unread: it may be stale (another writer, or
   * another process, appended since), which only an append expecting its revision can tell.
   */
  remembered<State>(fold: Fold, streamId: string): FoldedState<State> | undefined {
    const recent = this.recent.get(streamId);
    if (!recent || recent.evolve !== fold.evolve || recent.initialState !== fold.initialState) {
      return undefined;
    }
    return recent.folded as FoldedState<State>;
  }

  /** The remembered state of the stream and the events after it, or undefined. */
  async start<State>(
    fold: Fold,
    streamId: string,
  ): Promise<{ folded: FoldedState<State>; after: RecordedEvent[] } | undefined> {
    const folded = this.remembered<State>(fold, streamId);
    if (!folded) return undefined;
    const [atStart, ...after] = await this.store.readStream(streamId, {
      fromRevision: folded.revision,
    });
    if (atStart?.id !== folded.eventId) {
      this.recent.delete(streamId);
      return undefined;
    }
    return { folded, after };
  }

  remember(fold: Fold, streamId: string, folded: FoldedState<unknown>): void {
    this.recent.delete(streamId);
    this.recent.set(streamId, { initialState: fold.initialState, evolve: fold.evolve, folded });
    if (this.recent.size > RECENT_STREAMS) {
      this.recent.delete(this.recent.keys().next().value as string);
    }
  }
}
