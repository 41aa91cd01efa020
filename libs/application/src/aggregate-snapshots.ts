import type { SnapshotPolicy } from '#hawser/domain';
import type { SnapshotStore, StreamSnapshot } from '#hawser/eventstore';
import { estimatedBytes } from './estimated-bytes.js';

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
  /** The state's estimated heap bytes. */
  readonly bytes: number;
}

/** Streams whose latest state a process keeps in memory, the least recently used dropped first. */
const REMEMBERED_STREAMS = 1_000;

/**
 * Estimated heap bytes of the states kept in memory: a quota's state is 0.5 KB in a fresh
 * project and about 130 KB once its windows of 1,000 counted and given back ids are full, so a
 * count alone would let 1,000 busy projects hold 130 MB. This keeps about 120 full ones.
 */
export const REMEMBERED_STATE_BYTES = 16 * 1024 * 1024;

/**
 * The latest folded state of streams whose decider has a snapshot policy: in memory for the
 * streams this process used last (states are immutable, so sharing them is safe), and in the
 * snapshot store every `policy.every` events for the others and for the next start. Whatever
 * `latest` returns the caller checks against the log; `inMemory`'s state a retrying command is
 * decided on, its append expecting that state's revision. A failing store costs a replay, never
 * a command.
 */
export class AggregateSnapshots {
  private readonly remembered = new Map<string, Remembered>();
  private rememberedBytes = 0;

  constructor(
    private readonly store: SnapshotStore,
    private readonly budgetBytes = REMEMBERED_STATE_BYTES,
  ) {}

  async latest<State>(
    streamId: string,
    policy: SnapshotPolicy,
  ): Promise<FoldedState<State> | undefined> {
    const kept = this.kept(streamId, policy);
    if (kept) {
      // Read last, so dropped last.
      this.remembered.delete(streamId);
      this.remembered.set(streamId, kept);
      return kept as FoldedState<State>;
    }
    const stored = await this.readStored(streamId);
    if (stored?.stateVersion !== policy.stateVersion) return undefined;
    return { ...stored, state: stored.state as State, unsnapshotted: 0 };
  }

  /** The state kept in memory for the stream, unread and unchecked; undefined if none is. */
  inMemory<State>(streamId: string, policy: SnapshotPolicy): FoldedState<State> | undefined {
    return this.kept(streamId, policy) as FoldedState<State> | undefined;
  }

  /** The state kept in memory for the stream, if it is of the policy's state version. */
  private kept(streamId: string, policy: SnapshotPolicy): Remembered | undefined {
    const kept = this.remembered.get(streamId);
    return kept?.stateVersion === policy.stateVersion ? kept : undefined;
  }

  /** Keeps `folded` in memory, and writes it to the store once the policy says it is due. */
  async remember<State>(
    streamId: string,
    policy: SnapshotPolicy<State>,
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
    const before = this.remembered.get(streamId);
    this.drop(streamId);
    const kept: Remembered = {
      ...folded,
      stateVersion: policy.stateVersion,
      unsnapshotted: written ? 0 : folded.unsnapshotted,
      // A load that folded nothing new keeps the same state: not estimated again.
      bytes:
        before?.state === folded.state
          ? before.bytes
          : (policy.estimatedBytes?.(folded.state) ?? estimatedBytes(folded.state)),
    };
    this.remembered.set(streamId, kept);
    this.rememberedBytes += kept.bytes;
    for (const [oldest, entry] of this.remembered) {
      const over =
        this.remembered.size > REMEMBERED_STREAMS || this.rememberedBytes > this.budgetBytes;
      if (!over || entry === kept) break;
      this.drop(oldest);
    }
  }

  /** The estimated heap bytes of the states kept in memory. */
  get bytes(): number {
    return this.rememberedBytes;
  }

  /** Drops what is kept of a stream whose log no longer holds the event it was folded up to. */
  async forget(streamId: string): Promise<void> {
    this.drop(streamId);
    try {
      await this.store.delete(streamId);
    } catch {
      // Left in the store, it is checked and passed over again.
    }
  }

  private drop(streamId: string): void {
    const entry = this.remembered.get(streamId);
    if (entry === undefined) return;
    this.remembered.delete(streamId);
    this.rememberedBytes -= entry.bytes;
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
