import type { SnapshotPolicy } from '#hawser/domain';
import type { SnapshotStore, StreamSnapshot } from '#hawser/eventstore';

/** A stream's state folded up to the event `eventId` at `revision`. */
export interface FoldedState<State> {
  readonly state: State;
  readonly revision: number;
  readonly eventId: string;
  /** Events folded since the last snapshot written to the store (all of them without one). */
  readonly unsnapshotted: number;
}

interface Remembered extends FoldedState<unknown> {
  readonly stateVersion: number;
}

/** Streams whose latest state a process keeps in memory, the least recently used dropped first. */
const REMEMBERED_STREAMS = 1_000;

/**
 * The latest folded state of streams whose decider has a snapshot policy: in memory for the
 * streams this process used last (states are immutable, so sharing them is safe), and in the
 * snapshot store every `policy.every` events for the others and for the next start. Whatever
 * it returns the caller checks against the log; a failing store costs a replay, never a command.
 */
export class AggregateSnapshots {
  private readonly remembered = new Map<string, Remembered>();

  constructor(private readonly store: SnapshotStore) {}

  async latest<State>(
    streamId: string,
    policy: SnapshotPolicy,
  ): Promise<FoldedState<State> | undefined> {
    const inMemory = this.remembered.get(streamId);
    if (inMemory?.stateVersion === policy.stateVersion) {
      this.remembered.delete(streamId);
      this.remembered.set(streamId, inMemory);
      return inMemory as FoldedState<State>;
    }
    const stored = await this.readStored(streamId);
    if (stored?.stateVersion !== policy.stateVersion) return undefined;
    return { ...stored, state: stored.state as State, unsnapshotted: 0 };
  }

  /** Keeps `folded` in memory, and writes it to the store once the policy says it is due. */
  async remember<State>(
    streamId: string,
    policy: SnapshotPolicy,
    folded: FoldedState<State>,
  ): Promise<void> {
    const due = folded.unsnapshotted >= policy.every;
    const written =
      due &&
      (await this.write({
        streamId,
        revision: folded.revision,
        eventId: folded.eventId,
        stateVersion: policy.stateVersion,
        state: folded.state,
      }));
    this.remembered.delete(streamId);
    this.remembered.set(streamId, {
      ...folded,
      stateVersion: policy.stateVersion,
      unsnapshotted: written ? 0 : folded.unsnapshotted,
    });
    if (this.remembered.size > REMEMBERED_STREAMS) {
      this.remembered.delete(this.remembered.keys().next().value as string);
    }
  }

  /** Drops what is kept of a stream whose log no longer holds the event it was folded up to. */
  async forget(streamId: string): Promise<void> {
    this.remembered.delete(streamId);
    try {
      await this.store.delete(streamId);
    } catch {
      // Left in the store, it is checked and passed over again.
    }
  }

  private async readStored(streamId: string): Promise<StreamSnapshot | undefined> {
    try {
      return await this.store.read(streamId);
    } catch {
      return undefined;
    }
  }

  private async write(snapshot: StreamSnapshot): Promise<boolean> {
    try {
      await this.store.write(snapshot);
      return true;
    } catch {
      // The events are written; a snapshot not written only leaves a longer tail to fold.
      return false;
    }
  }
}
