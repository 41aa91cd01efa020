import { derivedId, type Decider, type DomainEvent } from '#hawser/domain';
import {
  WrongExpectedRevisionError,
  type EventMetadata,
  type EventStore,
  type RecordedEvent,
  type SnapshotStore,
} from '#hawser/eventstore';

/** Who asked, and why: becomes the metadata of every event the command produces. */
export interface CommandContext {
  /** Unique per command; the ids of the events it produces derive from it. */
  readonly commandId: string;
  readonly correlationId?: string;
  /** The event that caused this command (process managers), or the request id (API). */
  readonly causationId?: string;
  readonly userId?: string;
  readonly projectId?: string;
  readonly requestId?: string;
  readonly microversion?: string;
}

export interface CommandResult<State, Event> {
  readonly events: readonly Event[];
  /** The state after the new events. */
  readonly state: State;
  /** Log position of the last event written; undefined when the command decided nothing. */
  readonly position: number | undefined;
  /** Revision of the stream after the command (-1 when the stream does not exist). */
  readonly revision: number;
}

export interface HandleOptions {
  /**
   * Re-read and re-decide when another writer appended first. Process managers retry; user
   * commands do not, so two requests decided on the same revision end in one 409.
   */
  readonly retryOnConflict?: number;
}

const toMetadata = (ctx: CommandContext): EventMetadata => ({
  commandId: ctx.commandId,
  $correlationId: ctx.correlationId ?? ctx.commandId,
  $causationId: ctx.causationId ?? ctx.commandId,
  ...(ctx.userId !== undefined && { userId: ctx.userId }),
  ...(ctx.projectId !== undefined && { projectId: ctx.projectId }),
  ...(ctx.requestId !== undefined && { requestId: ctx.requestId }),
  ...(ctx.microversion !== undefined && { microversion: ctx.microversion }),
});

type Folding<State, Event> = Pick<
  Decider<State, unknown, Event>,
  'initialState' | 'evolve' | 'snapshots'
>;

interface Loaded<State> {
  readonly state: State;
  readonly revision: number;
  /** Events folded beyond the snapshot the load started from (all of them without one). */
  readonly unsnapshotted: number;
}

const domainEvent = <Event>(recorded: RecordedEvent): Event =>
  ({ type: recorded.type, data: recorded.data }) as Event;

/**
 * Loads a stream, folds it, decides, and appends at the revision the decision was made on.
 * With a snapshot store, a decider that has a snapshot policy is loaded from its latest
 * snapshot and the events after it, and a snapshot is written once enough events follow it.
 */
export class CommandHandler {
  constructor(
    private readonly store: EventStore,
    private readonly snapshots?: SnapshotStore,
  ) {}

  async load<State, Event extends DomainEvent>(
    decider: Folding<State, Event>,
    streamId: string,
  ): Promise<{ state: State; revision: number }> {
    const { state, revision } = await this.loadFolded(decider, streamId);
    return { state, revision };
  }

  private async loadFolded<State, Event extends DomainEvent>(
    decider: Folding<State, Event>,
    streamId: string,
  ): Promise<Loaded<State>> {
    const snapshot = await this.usableSnapshot(decider, streamId);
    if (snapshot) {
      // From the snapshot's own event: it must still be there, or the snapshot is not used.
      const recorded = await this.store.readStream(streamId, { fromRevision: snapshot.revision });
      if (recorded[0]?.id === snapshot.eventId) {
        const tail = recorded.slice(1);
        return {
          state: tail.map(domainEvent<Event>).reduce(decider.evolve, snapshot.state as State),
          revision: snapshot.revision + tail.length,
          unsnapshotted: tail.length,
        };
      }
    }
    const recorded = await this.store.readStream(streamId);
    return {
      state: recorded.map(domainEvent<Event>).reduce(decider.evolve, decider.initialState()),
      revision: recorded.length - 1,
      unsnapshotted: recorded.length,
    };
  }

  /** The stream's snapshot when its state has the shape the decider folds; a cache miss else. */
  private async usableSnapshot<State, Event>(decider: Folding<State, Event>, streamId: string) {
    const policy = decider.snapshots;
    if (!policy || !this.snapshots) return undefined;
    try {
      const snapshot = await this.snapshots.read(streamId);
      return snapshot?.stateVersion === policy.stateVersion ? snapshot : undefined;
    } catch {
      // An unreadable snapshot costs a replay, never the command.
      return undefined;
    }
  }

  /** Caches `state` at the stream's `revision` once enough events follow the last snapshot. */
  private async snapshotIfDue<State, Event>(
    decider: Folding<State, Event>,
    streamId: string,
    at: { state: State; revision: number; eventId: string; unsnapshotted: number },
  ): Promise<void> {
    const policy = decider.snapshots;
    if (!policy || !this.snapshots || at.unsnapshotted < policy.every) return;
    try {
      await this.snapshots.write({
        streamId,
        revision: at.revision,
        eventId: at.eventId,
        stateVersion: policy.stateVersion,
        state: at.state,
      });
    } catch {
      // The events are written; a snapshot not written only leaves a longer tail to fold.
    }
  }

  async handle<State, Command, Event extends DomainEvent>(
    decider: Decider<State, Command, Event>,
    streamId: string,
    command: Command,
    ctx: CommandContext,
    options: HandleOptions = {},
  ): Promise<CommandResult<State, Event>> {
    for (let attempt = 0; ; attempt += 1) {
      const { state, revision, unsnapshotted } = await this.loadFolded(decider, streamId);
      const events = decider.decide(command, state);
      if (events.length === 0) return { events, state, position: undefined, revision };
      const metadata = toMetadata(ctx);
      const newEvents = events.map((event, index) => ({
        id: derivedId(ctx.commandId, index),
        type: event.type,
        data: event.data,
        metadata,
      }));
      try {
        const result = await this.store.append(streamId, newEvents, {
          expectedRevision: revision < 0 ? 'no_stream' : revision,
        });
        const after = events.reduce(decider.evolve, state);
        // A retried append returns where its events were written before: not this state's.
        if (result.nextRevision === revision + events.length) {
          await this.snapshotIfDue(decider, streamId, {
            state: after,
            revision: result.nextRevision,
            eventId: newEvents[newEvents.length - 1]!.id,
            unsnapshotted: unsnapshotted + events.length,
          });
        }
        return { events, state: after, position: result.position, revision: result.nextRevision };
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError)) throw error;
        if (attempt >= (options.retryOnConflict ?? 0)) throw error;
      }
    }
  }
}
