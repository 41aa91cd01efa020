import type Database from 'better-sqlite3';
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
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
} from '../event-store.port.js';
import { storageFailureOf } from '../storage/storage-failure.js';
import type { UpcasterRegistry } from '../upcaster-registry.js';
import { DecodedEvents } from './decoded-events.js';
import { GroupCommit, LOCK_HELD, type LockPolicy, type Outcome } from './group-commit.js';
import { LogTailSubscription } from './log-tail-subscription.js';
import { filterClause } from './sqlite-filter.js';
import { BUSY_TIMEOUT_MS, EVENT_COLUMNS, openEventLog, type RawEventRow } from './sqlite-schema.js';

export interface SqliteEventStoreOptions {
  /** Path of the database file, or ':memory:' for a private, throw-away log. */
  readonly file: string;
  readonly upcasters?: UpcasterRegistry;
  /** How often caught-up subscriptions look for appends made by other processes. */
  readonly pollIntervalMs?: number;
  /**
   * How long an append waits for another connection's write lock before it fails as `busy`
   * (5 s unless given).
   */
  readonly busyTimeoutMs?: number;
}

const DEFAULT_POLL_INTERVAL_MS = 100;
/** Positions per catch-up query: large enough to amortise the query, small enough for memory. */
const SUBSCRIPTION_WINDOW = 2_000;
/** SQLite's LIMIT for "no limit". */
const NO_LIMIT = -1;
const NO_STREAM = -1;
/** An upper bound past every revision. */
const NO_END = Number.MAX_SAFE_INTEGER;
/**
 * Prepared statements kept (filter shapes times page sizes), the least recently used dropped
 * first: a limit given by a caller (an audit page) must not grow the cache without end.
 */
const CACHED_STATEMENTS = 128;
/** Decoded events kept by position: a few batches of creates, each read by several loads. */
const DECODED_EVENTS = 4_096;

type EventIdRow = [revision: number, position: number];

interface AppendRequest {
  readonly streamId: string;
  readonly events: readonly NewEvent[];
  readonly expected: ExpectedRevision;
}

interface AppendDone {
  readonly result: AppendResult;
  readonly written: boolean;
}
type StreamHeadRow = [revision: number, position: number];

/**
 * The embedded event store: one SQLite file in WAL mode, shareable by several processes.
 * better-sqlite3 is synchronous, so reads do their work before returning their promise. Appends
 * are committed in groups: those submitted before the microtasks run out share one IMMEDIATE
 * transaction (one commit, one WAL write), each in a savepoint of its own, so each keeps its
 * own expected-revision check and result, and a failing one takes back only its own events.
 */
export class SqliteEventStore implements EventStore {
  private readonly db: Database.Database;
  private readonly upcasters: UpcasterRegistry | undefined;
  private readonly pollIntervalMs: number;
  private readonly subscriptions = new Set<LogTailSubscription>();
  private readonly cachedStatements = new Map<string, Database.Statement>();
  private readonly decoded = new DecodedEvents(DECODED_EVENTS);

  private readonly insertEvent: Database.Statement;
  private readonly selectByEventId: Database.Statement;
  private readonly selectStreamHead: Database.Statement;
  private readonly selectHead: Database.Statement;
  private readonly selectStreamForwards: Database.Statement;
  private readonly selectStreamBackwards: Database.Statement;
  private readonly appends: GroupCommit<AppendRequest, AppendResult>;
  private readonly waitForLock: Database.Statement;
  private readonly noWaitForLock: Database.Statement;

  constructor(options: SqliteEventStoreOptions) {
    const busyTimeoutMs = options.busyTimeoutMs ?? BUSY_TIMEOUT_MS;
    this.db = openEventLog(options.file, busyTimeoutMs);
    this.waitForLock = this.db.prepare(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
    this.noWaitForLock = this.db.prepare('PRAGMA busy_timeout = 0');
    this.upcasters = options.upcasters;
    this.pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;

    this.insertEvent = this.db.prepare(
      'INSERT INTO events (stream_id, revision, event_id, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.selectByEventId = this.db
      .prepare('SELECT revision, position FROM events WHERE stream_id = ? AND event_id = ?')
      .raw();
    this.selectStreamHead = this.db
      .prepare(
        'SELECT revision, position FROM events WHERE stream_id = ? ORDER BY revision DESC LIMIT 1',
      )
      .raw();
    this.selectHead = this.db.prepare('SELECT COALESCE(MAX(position), 0) FROM events').pluck();
    // Revisions of a stream are consecutive, so a bounded forwards read is a range of them. A
    // bare `LIMIT ?` would make SQLite prepare the statement again on every call (it reads a
    // bound limit as a constant, which each binding expires); `(? + 0)` is an expression.
    this.selectStreamForwards = this.db
      .prepare(
        `SELECT ${EVENT_COLUMNS} FROM events WHERE stream_id = ? AND revision >= ? AND revision < ? ORDER BY revision`,
      )
      .raw();
    this.selectStreamBackwards = this.db
      .prepare(
        `SELECT ${EVENT_COLUMNS} FROM events WHERE stream_id = ? AND revision <= ? ORDER BY revision DESC LIMIT (? + 0)`,
      )
      .raw();
    // Called inside the batch's transaction, better-sqlite3 runs it in a savepoint.
    const inSavepoint = this.db.transaction(this.appendWithinTransaction.bind(this));
    const batch = this.db.transaction((requests: readonly AppendRequest[]) =>
      requests.map((request) => this.appendOwnOutcome(inSavepoint, request)),
    );
    // IMMEDIATE takes the write lock up front, so the revision checks and the inserts see the
    // same streams even when another process appends to this file.
    this.appends = new GroupCommit((requests, lock) => {
      const outcomes = this.underLock(lock, () => batch.immediate(requests));
      if (outcomes === LOCK_HELD) return LOCK_HELD;
      if (outcomes.some((outcome) => outcome.ok && outcome.result.written)) {
        for (const subscription of this.subscriptions) subscription.wake();
      }
      return outcomes.map((outcome) =>
        outcome.ok ? { ok: true, result: outcome.result.result } : outcome,
      );
    }, busyTimeoutMs);
  }

  append(
    streamId: string,
    events: readonly NewEvent[],
    options: { expectedRevision: ExpectedRevision },
  ): Promise<AppendResult> {
    return this.appends.submit({ streamId, events, expected: options.expectedRevision });
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    // A command that loads the stream decides on what was appended to it before, as when every
    // append committed at once.
    this.appends.commitNowIf((request) => request.streamId === streamId);
    const limit = sqlLimit(options.maxCount);
    let rows: unknown[];
    if (options.direction === 'backwards') {
      const from = options.fromRevision ?? Number.MAX_SAFE_INTEGER;
      rows = this.selectStreamBackwards.all(streamId, from, limit);
    } else {
      const from = options.fromRevision ?? 0;
      const before = limit === NO_LIMIT ? NO_END : Math.min(from + limit, NO_END);
      rows = this.selectStreamForwards.all(streamId, from, before);
    }
    return (rows as RawEventRow[]).map((row) => this.toRecorded(row));
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const backwards = options.direction === 'backwards';
    const filter = filterClause(options.filter);
    // The limit is written into the statement: bound as `LIMIT ?`, it would make SQLite prepare
    // the statement again on every call (page sizes are few, so the cache holds them).
    const limit = sqlLimit(options.maxCount);
    const statement = this.statement(`all:${backwards ? 'b' : 'f'}:${filter.shape}:${limit}`, () =>
      backwards
        ? `SELECT ${EVENT_COLUMNS} FROM events WHERE position < ?${filter.sql} ORDER BY position DESC LIMIT ${limit}`
        : `SELECT ${EVENT_COLUMNS} FROM events WHERE position > ?${filter.sql} ORDER BY position LIMIT ${limit}`,
    );
    const after = options.after ?? (backwards ? Number.MAX_SAFE_INTEGER : 0);
    const rows = statement.all(after, ...filter.params);
    return (rows as RawEventRow[]).map((row) => this.toRecorded(row));
  }

  subscribeToAll(options: SubscribeOptions = {}): Subscription {
    const filter = filterClause(options.filter);
    const window = this.statement(
      `window:${filter.shape}`,
      () =>
        `SELECT ${EVENT_COLUMNS} FROM events WHERE position > ? AND position <= ?${filter.sql} ORDER BY position`,
    );
    const subscription = new LogTailSubscription(
      {
        head: () => this.head(),
        window: (after, upTo) =>
          (window.all(after, upTo, ...filter.params) as RawEventRow[]).map((row) =>
            this.toRecorded(row),
          ),
      },
      {
        after: options.after ?? 0,
        pollIntervalMs: this.pollIntervalMs,
        windowSize: SUBSCRIPTION_WINDOW,
        onClose: (closed) => this.subscriptions.delete(closed),
      },
    );
    this.subscriptions.add(subscription);
    return subscription;
  }

  async headPosition(): Promise<number> {
    return this.head();
  }

  async close(): Promise<void> {
    await this.appends.drain();
    await Promise.all([...this.subscriptions].map((subscription) => subscription.close()));
    if (this.db.open) this.db.close();
  }

  /**
   * Runs a write transaction as `lock` says when another connection holds the write lock:
   * `block` waits in SQLite's busy handler, the others try once. A refused BEGIN wrote nothing.
   */
  private underLock<T>(lock: LockPolicy, transaction: () => T): T | typeof LOCK_HELD {
    if (lock === 'block') return transaction();
    this.noWaitForLock.get();
    try {
      return transaction();
    } catch (error) {
      if (lock === 'defer' && !this.db.inTransaction && storageFailureOf(error) === 'busy') {
        return LOCK_HELD;
      }
      throw error;
    } finally {
      this.waitForLock.get();
    }
  }

  private head(): number {
    return this.selectHead.get() as number;
  }

  /**
   * One append of a batch: its failure is its own, unless SQLite ended the whole transaction
   * (a full disk, an I/O error), which then fails the batch rather than let the appends after
   * it run outside a transaction. An append of one event needs no savepoint: its checks throw
   * before it writes, and SQLite takes back a failed INSERT on its own.
   */
  private appendOwnOutcome(
    inSavepoint: (request: AppendRequest) => AppendDone,
    request: AppendRequest,
  ): Outcome<AppendDone> {
    try {
      const done =
        request.events.length > 1 ? inSavepoint(request) : this.appendWithinTransaction(request);
      return { ok: true, result: done };
    } catch (error) {
      if (!this.db.inTransaction) throw error;
      return {
        ok: false,
        error: this.explainConstraintFailure(request.streamId, request.events, error),
      };
    }
  }

  /**
   * A retry of an append that committed is recognised only where the stream disagrees: its
   * revision moved past the one expected, or (expecting any revision) the first id is stored.
   * An append that goes through pays for no look-up.
   */
  private appendWithinTransaction({ streamId, events, expected }: AppendRequest): AppendDone {
    const head = this.selectStreamHead.get(streamId) as StreamHeadRow | undefined;
    const current = head?.[0] ?? NO_STREAM;
    if (!matchesExpected(expected, current)) {
      const retried = this.findEarlierAppend(streamId, events);
      if (retried !== undefined) return { result: retried, written: false };
      throw new WrongExpectedRevisionError(
        streamId,
        expected,
        current === NO_STREAM ? 'no_stream' : current,
      );
    }
    if (events.length === 0) {
      return { result: { nextRevision: current, position: head?.[1] ?? 0 }, written: false };
    }

    const recordedAt = new Date().toISOString();
    let position = 0;
    for (const [index, event] of events.entries()) {
      const metadata = completeMetadata(event.type, event.metadata, this.upcasters, recordedAt);
      try {
        const info = this.insertEvent.run(
          streamId,
          current + 1 + index,
          event.id,
          event.type,
          JSON.stringify(event.data ?? null),
          JSON.stringify(metadata),
        );
        position = Number(info.lastInsertRowid);
      } catch (error) {
        // SQLite took the failed INSERT back, and nothing before it was written.
        const retried =
          index === 0 && isEventIdClash(error)
            ? this.findEarlierAppend(streamId, events)
            : undefined;
        if (retried === undefined) throw error;
        return { result: retried, written: false };
      }
    }
    return { result: { nextRevision: current + events.length, position }, written: true };
  }

  /**
   * A batch whose first id the stream holds already must be a retry of one earlier append: the
   * same ids at consecutive revisions. Then its original result is the answer.
   */
  private findEarlierAppend(
    streamId: string,
    events: readonly NewEvent[],
  ): AppendResult | undefined {
    const [first] = events;
    if (first === undefined) return undefined;
    const firstRow = this.selectByEventId.get(streamId, first.id) as EventIdRow | undefined;
    if (firstRow === undefined) return undefined;
    const rows = events.map(
      (event) => this.selectByEventId.get(streamId, event.id) as EventIdRow | undefined,
    );
    const isRetry = rows.every((row, index) => row?.[0] === firstRow[0] + index);
    if (!isRetry) {
      const stored = events.filter((_, index) => rows[index] !== undefined).map((e) => e.id);
      throw new DuplicateEventIdError(
        streamId,
        stored,
        'already stored, and the batch is not a retry of one earlier append',
      );
    }
    const last = rows[rows.length - 1] as EventIdRow;
    return { nextRevision: last[0], position: last[1] };
  }

  /**
   * A unique-id failure on insert means a later id of the batch is stored already, or the
   * batch repeats an id. Found out only on failure, to keep the common path free of checks.
   */
  private explainConstraintFailure(
    streamId: string,
    events: readonly NewEvent[],
    error: unknown,
  ): unknown {
    if (!isEventIdClash(error)) return error;
    const stored = events
      .filter((event) => this.selectByEventId.get(streamId, event.id) !== undefined)
      .map((event) => event.id);
    const repeated = firstRepeatedId(events.map((event) => event.id));
    if (stored.length === 0 && repeated !== undefined) {
      return new DuplicateEventIdError(streamId, [repeated], 'appears twice in one append');
    }
    return new DuplicateEventIdError(
      streamId,
      stored,
      'already stored, and the batch is not a retry of one earlier append',
    );
  }

  private statement(key: string, sql: () => string): Database.Statement {
    let statement = this.cachedStatements.get(key);
    if (statement === undefined) {
      statement = this.db.prepare(sql()).raw();
      if (this.cachedStatements.size >= CACHED_STATEMENTS) {
        this.cachedStatements.delete(this.cachedStatements.keys().next().value as string);
      }
    } else this.cachedStatements.delete(key);
    this.cachedStatements.set(key, statement);
    return statement;
  }

  /** Only committed rows come here (reads run outside the append transactions). */
  private toRecorded(row: RawEventRow): RecordedEvent {
    const [position, streamId, revision, id, type, data, metadata] = row;
    const known = this.decoded.get(position, id);
    if (known !== undefined) return known;
    // Freshly parsed, so ours to complete in place (rows written elsewhere may lack these).
    const stored = JSON.parse(metadata) as StoredMetadata;
    stored.schemaVersion ??= 1;
    stored.recordedAt ??= '';
    const upcast = upcastStored(type, JSON.parse(data), stored, this.upcasters);
    const event = {
      id,
      type,
      data: upcast.data,
      metadata: upcast.metadata,
      streamId,
      revision,
      position,
    };
    this.decoded.add(event);
    return event;
  }
}

/** A whole number of rows to write into SQL, or SQLite's "no limit" when none is given. */
function sqlLimit(maxCount: number | undefined): number {
  if (maxCount === undefined || !(maxCount >= 0)) return NO_LIMIT;
  return Math.min(Math.floor(maxCount), Number.MAX_SAFE_INTEGER);
}

function matchesExpected(expected: ExpectedRevision, current: number): boolean {
  return (
    expected === 'any' ||
    (expected === 'no_stream' && current === NO_STREAM) ||
    (expected === 'stream_exists' && current !== NO_STREAM) ||
    expected === current
  );
}

/** A unique-id failure on insert: an id of the batch the stream holds already. */
function isEventIdClash(error: unknown): boolean {
  // Judged by shape, not `instanceof`: the native addon keeps the SqliteError class of the
  // first realm that loaded it (a Jest worker running several files has one realm per file).
  const failure = error as { code?: unknown; message?: unknown } | null;
  return (
    typeof failure === 'object' &&
    failure !== null &&
    failure.code === 'SQLITE_CONSTRAINT_UNIQUE' &&
    typeof failure.message === 'string' &&
    failure.message.includes('events.event_id')
  );
}
