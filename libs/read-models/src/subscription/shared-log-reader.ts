import { setImmediate } from 'node:timers/promises';
import {
  afterMicrotasks,
  matchesEventFilter,
  type EventFilter,
  type EventStore,
  type RecordedEvent,
} from '#hawser/eventstore';
import { readLogPage, type LogPage, type LogPageOptions } from './log-page.js';
import { onePerStore } from './one-per-store.js';

/** A stretch of the log read once, every event in it (no filter), decoded. */
interface SharedPage {
  /** Exclusive start. */
  readonly after: number;
  /** Every event in (after, upTo] is in `events`. */
  readonly upTo: number;
  readonly events: readonly RecordedEvent[];
}

export interface SharedLogReaderOptions {
  /** Fewest events read per shared page (default 500); more when a follower asks for more. */
  readonly pageSize?: number;
  /** Events kept for followers a little behind; older pages are dropped (default 4,000). */
  readonly maxCachedEvents?: number;
}

const DEFAULTS = { pageSize: 500, maxCachedEvents: 4_000 };

/** A caught-up follower asleep until the log holds an event it follows. */
export interface SleepingFollower {
  /** How far it has dealt with the log. */
  readonly after: number;
  readonly filter: EventFilter | undefined;
  /** Told that it is past `upTo`: the pages read show nothing it follows up to there. */
  passed(upTo: number): void;
}

/** A follower's sleep: over when the log concerns it, on `wake()`, or after its time-out. */
export interface Nap {
  readonly woken: Promise<void>;
  wake(): void;
}

interface Sleeper {
  after: number;
  readonly follower: SleepingFollower;
  readonly wake: () => void;
}

/**
 * The log as the followers of one process read it (projections, process managers): the pages
 * after the position the followers have reached are read once, every event of them decoded
 * once, and each follower takes from them what its filter matches. A follower behind those
 * pages (catching up, rebuilding, back from a pause) reads on its own, with its filter in the
 * query, up to where they start, and joins them there; one ahead of them starts them afresh.
 * Only a few pages are kept (`maxCachedEvents`), so memory stays bounded however far apart
 * the followers are. Events are shared between followers: they are read-only.
 */
export class SharedLogReader {
  private readonly pageSize: number;
  private readonly maxCachedEvents: number;
  /** Contiguous pages, oldest first. */
  private pages: SharedPage[] = [];
  /** Where the pages start when there are none yet. */
  private origin = 0;
  private cachedEvents = 0;
  /** The read of the page after `after` under way, which followers arriving meanwhile share. */
  private extending: { readonly after: number; readonly read: Promise<void> } | undefined;
  /** The head read last, kept until the microtasks run out (see `head`). */
  private headRead: Promise<number> | undefined;
  /** Caught-up followers asleep at the end of the pages (see `sleep`). */
  private readonly sleepers = new Set<Sleeper>();
  /** Whether `lookNow` is reading, and whether it was asked again meanwhile. */
  private looking = false;
  private lookAgain = false;
  /** Whether the last page read reached the head it read first. */
  private lastReadCaughtUp = true;

  constructor(
    private readonly store: EventStore,
    options: SharedLogReaderOptions = {},
  ) {
    this.pageSize = options.pageSize ?? DEFAULTS.pageSize;
    this.maxCachedEvents = options.maxCachedEvents ?? DEFAULTS.maxCachedEvents;
  }

  /** The one reader of a store in this process, shared by every follower of that store. */
  static readonly of: (store: EventStore) => SharedLogReader = onePerStore(
    (store) => new SharedLogReader(store),
  );

  /** How far the shared pages reach: (start, end]. */
  get span(): { readonly start: number; readonly end: number } {
    const last = this.pages[this.pages.length - 1];
    return { start: this.pages[0]?.after ?? this.origin, end: last?.upTo ?? this.origin };
  }

  /** The next page of matching events after `after`, as `readLogPage` answers it. */
  async page(after: number, options: LogPageOptions): Promise<LogPage> {
    const limit = options.upTo ?? Number.POSITIVE_INFINITY;
    if (limit <= after) return { events: [], examinedUpTo: after, caughtUp: true };
    const { start, end } = this.span;
    if (after < start) return this.readBehind(after, start, options);
    if (after > end) this.restartAt(after);
    if (after === this.span.end && !(await this.extend(options.maxCount))) {
      return { events: [], examinedUpTo: after, caughtUp: true };
    }
    return this.serve(after, options, limit);
  }

  /**
   * Lets a caught-up follower sleep until the log holds an event its filter matches. Each page
   * this reader reads (a real, contiguous read of the log, for an awake follower or `lookNow`)
   * moves a sleeper at its start on to its end when nothing in it matches, which is what the
   * follower's own read of it would have concluded, and wakes the sleeper when something does.
   * A follower outside the pages (behind them, or ahead) is woken at once: it reads on its own.
   */
  sleep(follower: SleepingFollower, timeoutMs: number): Nap {
    let wake = () => {};
    const woken = new Promise<void>((resolve) => {
      const timer = setTimeout(() => wake(), timeoutMs);
      const sleeper: Sleeper = { after: follower.after, follower, wake: () => wake() };
      wake = () => {
        clearTimeout(timer);
        this.sleepers.delete(sleeper);
        resolve();
      };
      this.sleepers.add(sleeper);
      const { start, end } = this.span;
      if (sleeper.after < start || sleeper.after > end) wake();
      else for (const page of this.pages) this.settle(sleeper, page);
    });
    return { woken, wake: () => wake() };
  }

  /**
   * Reads what the log holds after the pages, for the followers asleep at their end: called on
   * an append signal, a poll, or a wait for a position. Calls during a read are answered by one
   * more read after it, so a burst of appends costs one or two reads, not one per follower.
   */
  lookNow(): void {
    if (this.sleepers.size === 0) return;
    if (this.looking) {
      this.lookAgain = true;
      return;
    }
    this.looking = true;
    void this.look().finally(() => {
      this.looking = false;
    });
  }

  private async look(): Promise<void> {
    // The appends of one turn of the event loop (requests handled together) are read together.
    await setImmediate();
    do {
      this.lookAgain = false;
      try {
        // A read already under way may have begun before the append looked for: one more then.
        let fresh = this.extending === undefined;
        while (this.sleepers.size > 0) {
          const grew = await this.extend(this.pageSize);
          if (fresh && (!grew || this.lastReadCaughtUp)) break;
          fresh = true;
        }
      } catch {
        // The sleepers' own reads surface the failure when their sleep times out.
        return;
      }
    } while (this.lookAgain && this.sleepers.size > 0);
  }

  /** Moves a sleeper across a page it is at the start of, or wakes it (see `sleep`). */
  private settle(sleeper: Sleeper, page: SharedPage): void {
    if (sleeper.after >= page.upTo) return;
    if (sleeper.after < page.after) {
      sleeper.wake();
      return;
    }
    const { filter } = sleeper.follower;
    for (
      let e = firstAfter(page.events, sleeper.after, (event) => event.position);
      e < page.events.length;
      e++
    ) {
      const event = page.events[e] as RecordedEvent;
      if (matchesEventFilter(event.streamId, event.type, filter)) {
        sleeper.wake();
        return;
      }
    }
    sleeper.after = page.upTo;
    sleeper.follower.passed(page.upTo);
  }

  /**
   * From the pages: matching events after `after`, at most `maxCount` (never ending a page
   * inside one position), not past `limit`. At their end the head is read again, so that a
   * follower is told it caught up only with what is in the log now (as of this turn's work).
   */
  private async serve(after: number, options: LogPageOptions, limit: number): Promise<LogPage> {
    const events: RecordedEvent[] = [];
    for (let p = firstAfter(this.pages, after, (page) => page.upTo); p < this.pages.length; p++) {
      const page = this.pages[p] as SharedPage;
      const from = firstAfter(page.events, after, (event) => event.position);
      for (let e = from; e < page.events.length; e++) {
        const event = page.events[e] as RecordedEvent;
        if (event.position > limit) return { events, examinedUpTo: limit, caughtUp: true };
        if (!matchesEventFilter(event.streamId, event.type, options.filter)) continue;
        const last = events[events.length - 1];
        if (events.length >= options.maxCount && last?.position !== event.position) {
          return { events, examinedUpTo: last?.position ?? after, caughtUp: false };
        }
        events.push(event);
      }
    }
    const { end } = this.span;
    if (end >= limit) return { events, examinedUpTo: limit, caughtUp: true };
    return { events, examinedUpTo: end, caughtUp: end >= (await this.head()) };
  }

  /**
   * The log's head, read once for the followers served before the microtasks run out (those
   * woken by one append step together). An append committed meanwhile wakes them again through
   * their append signal; the head they are told of is never older than this turn's work.
   */
  private head(): Promise<number> {
    if (this.headRead === undefined) {
      this.headRead = this.store.headPosition();
      afterMicrotasks(() => {
        this.headRead = undefined;
      });
    }
    return this.headRead;
  }

  /** Reads the page after the last one; false when the log has nothing after it. */
  private async extend(maxCount: number): Promise<boolean> {
    const after = this.span.end;
    if (this.extending?.after !== after) {
      const read = this.readNextPage(after, Math.max(this.pageSize, maxCount)).finally(() => {
        if (this.extending?.read === read) this.extending = undefined;
      });
      this.extending = { after, read };
    }
    await this.extending.read;
    return this.span.end > after;
  }

  private async readNextPage(after: number, maxCount: number): Promise<void> {
    const page = await readLogPage(this.store, after, { maxCount });
    // Restarted meanwhile by a follower further on: this page no longer joins the others.
    if (page.examinedUpTo <= after || this.span.end !== after) return;
    const read: SharedPage = { after, upTo: page.examinedUpTo, events: page.events };
    this.pages.push(read);
    this.lastReadCaughtUp = page.caughtUp;
    this.cachedEvents += page.events.length;
    while (this.cachedEvents > this.maxCachedEvents && this.pages.length > 1) {
      const dropped = this.pages.shift() as SharedPage;
      this.cachedEvents -= dropped.events.length;
    }
    for (const sleeper of [...this.sleepers]) this.settle(sleeper, read);
  }

  /** The sleepers at the old pages' end are woken: they read on their own to the new start. */
  private restartAt(position: number): void {
    for (const sleeper of [...this.sleepers]) sleeper.wake();
    this.pages = [];
    this.cachedEvents = 0;
    this.origin = position;
  }

  /**
   * A follower behind the pages reads on its own, no further than where they start, so that
   * its next read joins them; reaching that start is not having caught up with the log.
   */
  private async readBehind(
    after: number,
    start: number,
    options: LogPageOptions,
  ): Promise<LogPage> {
    const limit = options.upTo ?? Number.POSITIVE_INFINITY;
    const upTo = Math.min(limit, start);
    const page = await readLogPage(this.store, after, { ...options, upTo });
    return {
      ...page,
      caughtUp: page.examinedUpTo >= limit || (page.caughtUp && page.examinedUpTo < upTo),
    };
  }
}

/** The index of the first item whose key is past `after`, in items sorted by that key. */
function firstAfter<T>(items: readonly T[], after: number, key: (item: T) => number): number {
  let [low, high] = [0, items.length];
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (key(items[middle] as T) <= after) low = middle + 1;
    else high = middle;
  }
  return low;
}
