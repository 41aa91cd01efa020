import {
  ANY,
  BACKWARDS,
  END,
  excludeSystemEvents,
  FORWARDS,
  jsonEvent,
  KurrentDBClient,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  StreamNotFoundError as KurrentStreamNotFoundError,
  WrongExpectedVersionError,
  type AllStreamResolvedEvent,
  type AppendStreamState,
  type JSONType,
  type Position,
  type RecordedEvent as KurrentRecordedEvent,
} from '@kurrent/kurrentdb-client';
import {
  completeMetadata,
  firstRepeatedId,
  upcastStored,
  type StoredMetadata,
} from '../event-envelope.js';
import {
  DuplicateEventIdError,
  WrongExpectedRevisionError,
  type AppendResult,
  type EventFilter,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
} from '../event-store.port.js';
import type { UpcasterRegistry } from '../upcaster-registry.js';
import { matchesFilter, serverFilter } from './kurrentdb-filter.js';
import { KurrentDbSubscription } from './kurrentdb-subscription.js';

/** Reported when the server gives no log position (stream reads on older servers). */
const UNKNOWN_POSITION = -1;
/** The server's "no position" marker: 2^64 - 1. */
const NO_POSITION_MARKER = 18_446_744_073_709_551_615n;

const toStreamState = (expected: ExpectedRevision): AppendStreamState => {
  switch (expected) {
    case 'no_stream':
      return NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
    case 'any':
      return ANY;
    default:
      return BigInt(expected);
  }
};

const toLogPosition = (position: number): Position => ({
  commit: BigInt(position),
  prepare: BigInt(position),
});

/** The commit position, as the port's number. */
const fromLogPosition = (position: Position | undefined): number =>
  position === undefined || position.commit === NO_POSITION_MARKER
    ? UNKNOWN_POSITION
    : Number(position.commit);

/**
 * The event store on a KurrentDB (EventStoreDB) server. The server enforces expected revisions
 * and recognises a retried append by its event ids (guaranteed for an exact expected revision,
 * best effort for 'any'); a retry that only partly matches is refused as a revision conflict.
 * Positions are commit positions; stream reads on servers that do not report one give -1.
 */
export class KurrentDbEventStore implements EventStore {
  private readonly client: KurrentDBClient;
  private readonly subscriptions = new Set<Subscription>();

  constructor(
    connectionString: string,
    private readonly upcasters?: UpcasterRegistry,
  ) {
    this.client = KurrentDBClient.connectionString(connectionString);
  }

  async append(
    streamId: string,
    events: readonly NewEvent[],
    options: { expectedRevision: ExpectedRevision },
  ): Promise<AppendResult> {
    const repeated = firstRepeatedId(events.map((event) => event.id));
    if (repeated !== undefined) {
      throw new DuplicateEventIdError(streamId, [repeated], 'appears twice in one append');
    }
    const recordedAt = new Date().toISOString();
    const payload = events.map((event) =>
      jsonEvent({
        id: event.id,
        type: event.type,
        // The server stores any JSON value; the client's type only names the common ones.
        data: (event.data ?? null) as JSONType,
        metadata: completeMetadata(event.type, event.metadata, this.upcasters, recordedAt),
      }),
    );
    try {
      const result = await this.client.appendToStream(streamId, payload, {
        streamState: toStreamState(options.expectedRevision),
      });
      return {
        nextRevision: Number(result.nextExpectedRevision),
        position: fromLogPosition(result.position),
      };
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) {
        const actual = error.actualState;
        throw new WrongExpectedRevisionError(
          streamId,
          options.expectedRevision,
          typeof actual === 'bigint' ? Number(actual) : 'no_stream',
        );
      }
      throw error;
    }
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const backwards = options.direction === 'backwards';
    const reading = this.client.readStream(streamId, {
      direction: backwards ? BACKWARDS : FORWARDS,
      fromRevision:
        options.fromRevision !== undefined ? BigInt(options.fromRevision) : backwards ? END : START,
      ...(options.maxCount !== undefined && { maxCount: options.maxCount }),
    });
    const events: RecordedEvent[] = [];
    try {
      for await (const resolved of reading) {
        if (resolved.event !== undefined) events.push(this.toRecorded(resolved.event));
      }
    } catch (error) {
      if (error instanceof KurrentStreamNotFoundError) return [];
      throw error;
    }
    return events;
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const backwards = options.direction === 'backwards';
    const after = options.after;
    const maxCount = options.maxCount ?? Number.MAX_SAFE_INTEGER;
    if (maxCount <= 0) return [];
    const reading = this.client.readAll({
      direction: backwards ? BACKWARDS : FORWARDS,
      fromPosition: after !== undefined ? toLogPosition(after) : backwards ? END : START,
      filter: serverFilter(options.filter),
    });
    const events: RecordedEvent[] = [];
    for await (const resolved of reading) {
      const event = this.acceptFromAll(resolved, options.filter);
      if (event === undefined) continue;
      // The position itself is exclusive; the server starts reading at it.
      if (after !== undefined && (backwards ? event.position >= after : event.position <= after)) {
        continue;
      }
      const last = events[events.length - 1];
      // A page never ends inside one commit, so paging by position cannot skip its remainder.
      if (events.length >= maxCount && last?.position !== event.position) break;
      events.push(event);
    }
    return events;
  }

  subscribeToAll(options: SubscribeOptions = {}): Subscription {
    const source = this.client.subscribeToAll({
      fromPosition: options.after !== undefined ? toLogPosition(options.after) : START,
      filter: serverFilter(options.filter),
    });
    const after = options.after ?? -1;
    const subscription = new KurrentDbSubscription(
      source,
      (resolved) => {
        const event = this.acceptFromAll(resolved, options.filter);
        return event !== undefined && event.position > after ? event : undefined;
      },
      (closed) => this.subscriptions.delete(closed),
    );
    this.subscriptions.add(subscription);
    return subscription;
  }

  async headPosition(): Promise<number> {
    for await (const resolved of this.client.readAll({
      direction: BACKWARDS,
      fromPosition: END,
      maxCount: 1,
      // The last event the port would show: system events (statistics, metadata) excluded.
      filter: excludeSystemEvents(),
    })) {
      return fromLogPosition(resolved.event?.position);
    }
    return 0;
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((subscription) => subscription.close()));
    await this.client.dispose();
  }

  private acceptFromAll(
    resolved: AllStreamResolvedEvent,
    filter: EventFilter | undefined,
  ): RecordedEvent | undefined {
    const event = resolved.event;
    if (event === undefined || !matchesFilter(event.streamId, event.type, filter)) {
      return undefined;
    }
    return this.toRecorded(event);
  }

  private toRecorded(event: KurrentRecordedEvent): RecordedEvent {
    const stored = (
      event.isJson && typeof event.metadata === 'object' && !(event.metadata instanceof Uint8Array)
        ? event.metadata
        : {}
    ) as Partial<StoredMetadata>;
    const upcast = upcastStored(
      event.type,
      event.data,
      {
        ...stored,
        schemaVersion: stored.schemaVersion ?? 1,
        recordedAt: stored.recordedAt ?? event.created.toISOString(),
      },
      this.upcasters,
    );
    return {
      id: event.id,
      type: event.type,
      data: upcast.data,
      metadata: upcast.metadata,
      streamId: event.streamId,
      revision: Number(event.revision),
      position: fromLogPosition(event.position),
    };
  }
}
