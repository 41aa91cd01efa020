import type { EventStore, RecordedEvent } from '#hawser/eventstore';
import type { FoldedState } from './aggregate-snapshots.js';

/** Streams whose latest state is kept, the least recently used dropped first. */
const RECENT_STREAMS = 1_000;

interface Recent {
  /** The decider that folded it: another one folding the same stream gets nothing. */
  readonly folding: object;
  readonly folded: FoldedState<unknown>;
}

/**
 * The latest state this process folded of the streams it used last, for deciders without a
 * snapshot policy (a share's stream: short, but loaded by every reaction to it). A load reads
 * only the events after it instead of the whole stream. States are immutable, so sharing one is
 * safe; each use checks the log still holds the event it was folded up to.
 */
export class RecentStates {
  private readonly recent = new Map<string, Recent>();

  constructor(private readonly store: EventStore) {}

  /** The remembered state of the stream and the events after it, or undefined. */
  async start<State>(
    folding: object,
    streamId: string,
  ): Promise<{ folded: FoldedState<State>; after: RecordedEvent[] } | undefined> {
    const recent = this.recent.get(streamId);
    if (recent?.folding !== folding) return undefined;
    const [atStart, ...after] = await this.store.readStream(streamId, {
      fromRevision: recent.folded.revision,
    });
    if (atStart?.id !== recent.folded.eventId) {
      this.recent.delete(streamId);
      return undefined;
    }
    return { folded: recent.folded as FoldedState<State>, after };
  }

  remember(folding: object, streamId: string, folded: FoldedState<unknown>): void {
    this.recent.delete(streamId);
    this.recent.set(streamId, { folding, folded });
    if (this.recent.size > RECENT_STREAMS) {
      this.recent.delete(this.recent.keys().next().value as string);
    }
  }
}
