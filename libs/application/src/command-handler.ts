import { derivedId, fold, type Decider, type DomainEvent } from '#hawser/domain';
import {
  WrongExpectedRevisionError,
  type EventMetadata,
  type EventStore,
  type RecordedEvent,
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

/** Loads a stream, folds it, decides, and appends at the revision the decision was made on. */
export class CommandHandler {
  constructor(private readonly store: EventStore) {}

  async load<State, Event extends DomainEvent>(
    decider: Pick<Decider<State, unknown, Event>, 'initialState' | 'evolve'>,
    streamId: string,
  ): Promise<{ state: State; revision: number }> {
    const recorded = await this.store.readStream(streamId);
    const events = recorded.map((e: RecordedEvent) => ({ type: e.type, data: e.data }) as Event);
    return { state: fold(decider, events), revision: recorded.length - 1 };
  }

  async handle<State, Command, Event extends DomainEvent>(
    decider: Decider<State, Command, Event>,
    streamId: string,
    command: Command,
    ctx: CommandContext,
    options: HandleOptions = {},
  ): Promise<CommandResult<State, Event>> {
    for (let attempt = 0; ; attempt += 1) {
      const { state, revision } = await this.load(decider, streamId);
      const events = decider.decide(command, state);
      if (events.length === 0) return { events, state, position: undefined, revision };
      const metadata = toMetadata(ctx);
      try {
        const result = await this.store.append(
          streamId,
          events.map((event, index) => ({
            id: derivedId(ctx.commandId, index),
            type: event.type,
            data: event.data,
            metadata,
          })),
          { expectedRevision: revision < 0 ? 'no_stream' : revision },
        );
        return {
          events,
          state: events.reduce(decider.evolve, state),
          position: result.position,
          revision: result.nextRevision,
        };
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError)) throw error;
        if (attempt >= (options.retryOnConflict ?? 0)) throw error;
      }
    }
  }
}
