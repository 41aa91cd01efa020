import { derivedId, type Decider, type DomainEvent, type SnapshotPolicy } from '#hawser/domain';
import {
  KeyedMutex,
  WrongExpectedRevisionError,
  type EventMetadata,
  type EventStore,
  type RecordedEvent,
  type SnapshotStore,
} from '#hawser/eventstore';
import { currentLogContext } from '#hawser/observability';
import { decoderOfStream } from '../../../eventstore/decoders.js';
import { AggregateSnapshots, type FoldedState } from './aggregate-snapshots.js';
import { RecentStates } from './recent-states.js';

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
   * commands do not, so two requests decided on the same revision end in one 409. A command
   * that retries is first decided on the state this process folded last, unread: the append
   * expects that state's revision, so a stale one fails it and the retries read the stream; a
   * decision on it that appends nothing (a refusal, a no-op) is taken again on the stream as
   * read. Such commands on one stream also take turns within the process (see `handle`).
   */
  readonly retryOnConflict?: number;
  /**
   * The stream cannot exist yet: its id was made up for this command (a random UUID). It is
   * then decided on the initial state without a read, and appended expecting no stream; should
   * the stream exist after all, the append fails and a retry decides on the stream as read.
   */
  readonly newStream?: boolean;
}

/**
 * A command sent while handling an event or a request (see `withLogContext`) inherits that
 * work's request id and correlation where its context names none, so the events of a share's
 * whole creation, down to the node's outcome, carry the request id of the POST.
 */
const toMetadata = (ctx: CommandContext): EventMetadata => {
  const current = currentLogContext();
  const requestId = ctx.requestId ?? current?.requestId;
  return {
    commandId: ctx.commandId,
    $correlationId: ctx.correlationId ?? current?.correlationId ?? ctx.commandId,
    $causationId: ctx.causationId ?? ctx.commandId,
    ...(ctx.userId !== undefined && { userId: ctx.userId }),
    ...(ctx.projectId !== undefined && { projectId: ctx.projectId }),
    ...(requestId !== undefined && { requestId }),
    ...(ctx.microversion !== undefined && { microversion: ctx.microversion }),
  };
};

const commandName = (command: unknown): string => {
  const type = (command as { type?: unknown } | null)?.type;
  return typeof type === 'string' ? type : 'command';
};

type Folding<State, Event> = Pick<
  Decider<State, unknown, Event>,
  'initialState' | 'evolve' | 'snapshots'
>;

/** A folded stream (revision -1 when it has no events). */
type Loaded<State> = Omit<FoldedState<State>, 'eventId'>;

/**
 * A stored event decoded by its stream's category (upcast, its type checked against the
 * catalogue; a refused event fails the load). The decider is generic over its own union, which
 * is its stream category's: that is what the one assertion here relies on.
 */
const domainEvent = <Event>(recorded: RecordedEvent): Event => {
  const decoder = decoderOfStream(recorded.streamId);
  if (!decoder) throw new Error(`no event decoder for stream ${recorded.streamId}`);
  const { type, data } = decoder.decode(recorded);
  return { type, data } as Event;
};

/** A stream before its first event. */
const unborn = <State>(decider: Pick<Folding<State, never>, 'initialState'>): Loaded<State> => ({
  state: decider.initialState(),
  revision: -1,
  unsnapshotted: 0,
});

/**
 * Loads a stream, folds it, decides, and appends at the revision the decision was made on.
 * With a snapshot store, a decider that has a snapshot policy is loaded from the latest state
 * this process folded or from its snapshot, and only the events after it are folded.
 */
export class CommandHandler {
  private readonly snapshots: AggregateSnapshots | undefined;
  private readonly recent: RecentStates;
  private readonly streamTurns = new KeyedMutex();

  constructor(
    private readonly store: EventStore,
    snapshots?: SnapshotStore,
  ) {
    this.snapshots = snapshots && new AggregateSnapshots(snapshots);
    this.recent = new RecentStates(store);
  }

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
    const policy = decider.snapshots;
    const cache = policy && this.snapshots;
    const start = cache
      ? await this.checkedStart<State>(cache, policy, streamId)
      : policy === undefined
        ? await this.recent.start<State>(decider, streamId)
        : undefined;
    const tail = start ? start.after : await this.store.readStream(streamId);
    const from = start?.folded ?? unborn(decider);
    const last = tail[tail.length - 1];
    if (!last) return from;
    const folded: FoldedState<State> = {
      state: tail.map(domainEvent<Event>).reduce(decider.evolve, from.state),
      revision: last.revision,
      eventId: last.id,
      unsnapshotted: from.unsnapshotted + tail.length,
    };
    if (cache) await cache.remember(streamId, policy, folded);
    else if (policy === undefined) this.recent.remember(decider, streamId, folded);
    return folded;
  }

  /** The stream folded, or, for one said to be new (`HandleOptions.newStream`), unread. */
  private loadUnlessNew<State, Event extends DomainEvent>(
    decider: Folding<State, Event>,
    streamId: string,
    newStream: boolean | undefined,
  ): Promise<Loaded<State>> {
    return newStream ? Promise.resolve(unborn(decider)) : this.loadFolded(decider, streamId);
  }

  /** The latest folded state and the events after it, when the log still holds its event. */
  private async checkedStart<State>(
    cache: AggregateSnapshots,
    policy: SnapshotPolicy,
    streamId: string,
  ): Promise<{ folded: FoldedState<State>; after: RecordedEvent[] } | undefined> {
    const folded = await cache.latest<State>(streamId, policy);
    if (!folded) return undefined;
    const [atStart, ...after] = await this.store.readStream(streamId, {
      fromRevision: folded.revision,
    });
    if (atStart?.id === folded.eventId) return { folded, after };
    await cache.forget(streamId);
    return undefined;
  }

  /**
   * Decides `command` on the stream as it is now, appending nothing: the events it would bring,
   * or the DomainError it is refused with. A use case that reserves elsewhere first (quota) asks
   * this before, so a request its decision refuses reserves nothing.
   */
  async decideOnly<State, Command, Event extends DomainEvent>(
    decider: Decider<State, Command, Event>,
    streamId: string,
    command: Command,
    options: Pick<HandleOptions, 'newStream'> = {},
  ): Promise<readonly Event[]> {
    const { state } = await this.loadUnlessNew(decider, streamId, options.newStream);
    return decider.decide(command, state);
  }

  /**
   * Decides `command` on the stream and appends its events. Commands that retry on a conflict
   * take turns on their stream within the process: decided together on one revision, all but
   * one would fail their append and be decided again (a project's quota stream takes one
   * reservation per create, from every concurrent request), so each is decided on the state
   * the one before it appended instead. Other processes' appends still meet as conflicts.
   */
  async handle<State, Command, Event extends DomainEvent>(
    decider: Decider<State, Command, Event>,
    streamId: string,
    command: Command,
    ctx: CommandContext,
    options: HandleOptions = {},
  ): Promise<CommandResult<State, Event>> {
    currentLogContext()?.step?.commands.push(`${commandName(command)} ${streamId}`);
    if (!options.retryOnConflict) {
      return this.decideAndAppend(decider, streamId, command, ctx, options);
    }
    return this.streamTurns.run(streamId, () =>
      this.decideAndAppend(decider, streamId, command, ctx, options),
    );
  }

  private async decideAndAppend<State, Command, Event extends DomainEvent>(
    decider: Decider<State, Command, Event>,
    streamId: string,
    command: Command,
    ctx: CommandContext,
    options: HandleOptions,
  ): Promise<CommandResult<State, Event>> {
    const retries = options.retryOnConflict ?? 0;
    const remembered =
      retries > 0 && !options.newStream ? this.remembered(decider, streamId) : undefined;
    if (remembered) {
      const appended = await this.appendedUnlessStale(decider, streamId, command, ctx, remembered);
      if (appended) return appended;
    }
    for (let attempt = 0; ; attempt += 1) {
      // A retry after a conflict reads the stream, new or not.
      const loaded = await this.loadUnlessNew(
        decider,
        streamId,
        attempt === 0 && options.newStream,
      );
      const { state, revision } = loaded;
      const events = decider.decide(command, state);
      if (events.length === 0) return { events, state, position: undefined, revision };
      try {
        return await this.append(decider, streamId, ctx, loaded, events);
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError)) throw error;
        if (attempt >= retries) throw error;
      }
    }
  }

  /**
   * The latest state this process folded of the stream, as it kept it: neither read nor checked
   * against the log (see `HandleOptions.retryOnConflict` for what makes deciding on it safe).
   */
  private remembered<State>(
    decider: Folding<State, never>,
    streamId: string,
  ): FoldedState<State> | undefined {
    return decider.snapshots
      ? this.snapshots?.inMemory<State>(streamId, decider.snapshots)
      : this.recent.remembered<State>(decider, streamId);
  }

  /**
   * The command decided on a state not read (`HandleOptions.retryOnConflict`) and appended; or
   * undefined when that decision appends nothing or is refused, or the state was stale (the
   * append expecting its revision failed, or found the command's events written already after
   * it): the caller then decides on the stream as read.
   */
  private async appendedUnlessStale<State, Command, Event extends DomainEvent>(
    decider: Decider<State, Command, Event>,
    streamId: string,
    command: Command,
    ctx: CommandContext,
    remembered: Loaded<State>,
  ): Promise<CommandResult<State, Event> | undefined> {
    let events: readonly Event[];
    try {
      events = decider.decide(command, remembered.state);
    } catch {
      return undefined;
    }
    if (events.length === 0) return undefined;
    try {
      const appended = await this.append(decider, streamId, ctx, remembered, events);
      return appended.revision === remembered.revision + events.length ? appended : undefined;
    } catch (error) {
      if (error instanceof WrongExpectedRevisionError) return undefined;
      throw error;
    }
  }

  /** Appends the events decided on `loaded`, expecting its revision, and remembers the state. */
  private async append<State, Command, Event extends DomainEvent>(
    decider: Decider<State, Command, Event>,
    streamId: string,
    ctx: CommandContext,
    loaded: Loaded<State>,
    events: readonly Event[],
  ): Promise<CommandResult<State, Event>> {
    const { state, revision } = loaded;
    const metadata = toMetadata(ctx);
    const newEvents = events.map((event, index) => ({
      id: derivedId(ctx.commandId, index),
      type: event.type,
      data: event.data,
      metadata,
    }));
    const result = await this.store.append(streamId, newEvents, {
      expectedRevision: revision < 0 ? 'no_stream' : revision,
    });
    const after = events.reduce(decider.evolve, state);
    // A retried append returns where its events were written before: not this state's.
    if (result.nextRevision === revision + events.length) {
      const folded = {
        state: after,
        revision: result.nextRevision,
        eventId: newEvents[newEvents.length - 1]!.id,
        unsnapshotted: loaded.unsnapshotted + events.length,
      };
      if (decider.snapshots) {
        await this.snapshots?.remember(streamId, decider.snapshots, folded);
      } else this.recent.remember(decider, streamId, folded);
    }
    return { events, state: after, position: result.position, revision: result.nextRevision };
  }
}
