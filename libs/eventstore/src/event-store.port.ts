/**
 * The event store port. Every adapter (SQLite for the embedded default, KurrentDB/EventStoreDB
 * in production) passes the same contract suite (`event-store.contract.ts`).
 *
 * Positions are numbers: SQLite's global sequence, or EventStoreDB's commit position (safe as a
 * JavaScript number below 2^53 bytes of log). Revisions count from 0 within a stream.
 */

/** What an append expects the stream to look like; a mismatch throws WrongExpectedRevisionError. */
export type ExpectedRevision = 'no_stream' | 'stream_exists' | 'any' | number;

export interface EventMetadata {
  /** EventStoreDB's own names, so its category and correlation projections work. */
  $correlationId?: string;
  $causationId?: string;
  commandId?: string;
  userId?: string;
  projectId?: string;
  requestId?: string;
  microversion?: string;
  /** Version of the event's data shape; older versions are upcast on read. */
  schemaVersion?: number;
  /** ISO-8601 time at which the event was recorded. Set by the store when absent. */
  recordedAt?: string;
  [key: string]: unknown;
}

export interface NewEvent<Type extends string = string, Data = unknown> {
  /** A UUID. Appending an event id that the stream already holds is a no-op (idempotence). */
  readonly id: string;
  readonly type: Type;
  readonly data: Data;
  readonly metadata?: EventMetadata;
}

export interface RecordedEvent<Type extends string = string, Data = unknown> {
  readonly id: string;
  readonly type: Type;
  readonly data: Data;
  readonly metadata: EventMetadata & { schemaVersion: number; recordedAt: string };
  readonly streamId: string;
  readonly revision: number;
  readonly position: number;
}

export interface AppendResult {
  /** Revision of the last event now in the stream. */
  readonly nextRevision: number;
  /** Log position of the last event written (or already present, for an idempotent retry). */
  readonly position: number;
}

export interface ReadStreamOptions {
  direction?: 'forwards' | 'backwards';
  /** Inclusive. Default: the start (forwards) or the end (backwards). */
  fromRevision?: number;
  maxCount?: number;
}

export interface ReadAllOptions {
  direction?: 'forwards' | 'backwards';
  /** Exclusive: events strictly after (forwards) or before (backwards) this position. */
  after?: number;
  maxCount?: number;
  filter?: EventFilter;
}

export interface EventFilter {
  streamPrefixes?: readonly string[];
  eventTypes?: readonly string[];
}

export interface SubscribeOptions {
  /** Deliver events strictly after this position; undefined means from the start of the log. */
  after?: number;
  filter?: EventFilter;
}

/**
 * A catch-up subscription that turns live. Iterate it with `for await`; events arrive once
 * each, in log order. `close()` ends the iteration.
 */
export interface Subscription extends AsyncIterable<RecordedEvent> {
  close(): Promise<void>;
}

export interface EventStore {
  append(
    streamId: string,
    events: readonly NewEvent[],
    options: { expectedRevision: ExpectedRevision },
  ): Promise<AppendResult>;
  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  subscribeToAll(options?: SubscribeOptions): Subscription;
  /** Position of the last event in the log (0 when empty). */
  headPosition(): Promise<number>;
  close(): Promise<void>;
}

export class WrongExpectedRevisionError extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly actual: number | 'no_stream',
  ) {
    super(`stream ${streamId}: expected revision ${String(expected)}, found ${String(actual)}`);
    this.name = 'WrongExpectedRevisionError';
  }
}

export class StreamNotFoundError extends Error {
  constructor(readonly streamId: string) {
    super(`stream ${streamId} not found`);
    this.name = 'StreamNotFoundError';
  }
}

/**
 * An append whose event ids clash with events the stream holds already (only some of the
 * batch, or not at consecutive revisions), or that repeats an id: not a retry of an earlier
 * append, so nothing is written. Ids are unique per stream, as in KurrentDB. A full retry of an earlier append is not an error: it returns the original result.
 */
export class DuplicateEventIdError extends Error {
  constructor(
    readonly streamId: string,
    readonly eventIds: readonly string[],
    reason: string,
  ) {
    super(`stream ${streamId}: event id ${eventIds.join(', ')} ${reason}`);
    this.name = 'DuplicateEventIdError';
  }
}
