import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  matchesEventFilter,
  type EventFilter,
  type EventStore,
  type RecordedEvent,
  type Subscription,
} from '#hawser/eventstore';
import { onePerStore } from './one-per-store.js';

/** What a caught-up follower waits for: an event after `after` that its filter matches. */
export interface AppendInterest {
  readonly after: number;
  readonly filter?: EventFilter;
}

interface Waiter {
  readonly interest: AppendInterest | undefined;
  readonly wake: () => void;
}

/**
 * Tells log readers that something was appended, so a caught-up reader wakes at once instead
 * of polling. Every signal of one store in a process hears the same subscription of the store
 * (`AppendSource`), from the head; the readers still poll (their wait has a time-out) in case
 * it stops. A reader that names its interest wakes only for events its filter matches, and
 * counts as having dealt with the others (`reach`): most appends concern two or three of a
 * process's twenty followers, and waking the rest cost each a page read for nothing.
 */
export class AppendSignal {
  private count = 0;
  /** The count at the last notification that was not an appended event. */
  private lastExplicit = 0;
  private readonly waiters = new Set<Waiter>();
  private opened = false;

  constructor(
    private readonly store: EventStore,
    /** Told after each appended event, once `reach` accounts for it. */
    private readonly appended: () => void = () => {},
  ) {}

  async open(): Promise<void> {
    if (this.opened) return;
    this.opened = true;
    await AppendSource.of(this.store).add(this);
  }

  /** Changes whenever something may have been appended; pass it to `wait`. */
  get version(): number {
    return this.count;
  }

  /** Wakes every waiter (a stop, or a reader who wants the others to look now). */
  notify(): void {
    this.count += 1;
    this.lastExplicit = this.count;
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const waiter of waiters) waiter.wake();
  }

  /** Told by the store's subscription of each appended event, in log order. */
  eventAppended(event: RecordedEvent): void {
    this.count += 1;
    for (const waiter of [...this.waiters]) {
      if (concerns(waiter.interest, event)) waiter.wake();
    }
    this.appended();
  }

  /**
   * Resolves at the next notification after `version` was read (with `interest`: the next that
   * is an event it matches, or not an event), or after `timeoutMs`.
   */
  wait(version: number, timeoutMs: number, interest?: AppendInterest): Promise<void> {
    if (version !== this.count && this.toldSince(version, interest)) return Promise.resolve();
    return new Promise((resolve) => {
      const waiter: Waiter = {
        interest,
        wake: () => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve();
        },
      };
      const timer = setTimeout(waiter.wake, timeoutMs);
      this.waiters.add(waiter);
    });
  }

  /**
   * How far a follower that has dealt with the log up to `examined` has in effect: past the
   * events after it that its filter does not match, up to the first it does, as far as this
   * process's subscription has seen the log.
   */
  reach(examined: number, filter: EventFilter | undefined): number {
    return this.opened ? AppendSource.of(this.store).quietUpTo(examined, filter) : examined;
  }

  /**
   * Makes the followers look for `position` now. An append this process's subscription has
   * seen woke those it concerns already; one it has not seen by the next turn (made by another
   * process, which it finds only by polling) wakes them all.
   */
  lookFor(position: number): void {
    const source = AppendSource.of(this.store);
    if (!this.opened || source.latest >= position) return;
    void nextTurn().then(() => {
      if (source.latest < position) this.notify();
    });
  }

  async close(): Promise<void> {
    if (this.opened) await AppendSource.of(this.store).remove(this);
    this.opened = false;
    this.notify();
  }

  private toldSince(version: number, interest: AppendInterest | undefined): boolean {
    if (interest === undefined || this.lastExplicit > version) return true;
    const source = AppendSource.of(this.store);
    return source.quietUpTo(interest.after, interest.filter) < source.latest;
  }
}

const concerns = (interest: AppendInterest | undefined, event: RecordedEvent): boolean =>
  interest === undefined ||
  (event.position > interest.after &&
    matchesEventFilter(event.streamId, event.type, interest.filter));

/** Where an appended event was, what it was: enough to match a filter. */
interface Appended {
  readonly position: number;
  readonly streamId: string;
  readonly type: string;
}

/** Where `quietUpTo` looked last for a filter from `after`, and the match it found there. */
interface QuietAnswer {
  readonly after: number;
  readonly scannedUpTo: number;
  readonly matchedAt: number | undefined;
}

/** Appended events remembered for `quietUpTo`: more than the followers fall behind while live. */
const REMEMBERED_APPENDS = 2_048;

/**
 * One subscription of a store per process, open while any signal is, telling every open signal
 * of each append: the store decodes each appended event once for all of them, not once per
 * runner. It remembers where and what the last appended events were (not the events), to say
 * which followers they concern.
 */
class AppendSource {
  private readonly signals = new Set<AppendSignal>();
  private subscription: Subscription | undefined;
  private following: Promise<void> | undefined;
  /** The last position the subscription delivered (the head when it was opened). */
  latest = 0;
  /** Every event the subscription delivered after `coveredAfter` is in `recent`. */
  private coveredAfter = 0;
  private recent: Appended[] = [];
  /** Per filter, the last answer of `quietUpTo`, so the next scans only what came since. */
  private answered = new WeakMap<EventFilter, QuietAnswer>();

  private constructor(private readonly store: EventStore) {}

  static readonly of: (store: EventStore) => AppendSource = onePerStore(
    (store) => new AppendSource(store),
  );

  async add(signal: AppendSignal): Promise<void> {
    this.signals.add(signal);
    if (this.subscription) return;
    const head = await this.store.headPosition();
    const subscription = this.store.subscribeToAll({ after: head });
    if (this.subscription) {
      // Another signal opened it while the head was read.
      await subscription.close();
      return;
    }
    this.subscription = subscription;
    this.latest = head;
    this.coveredAfter = head;
    this.recent = [];
    this.answered = new WeakMap();
    this.following = this.follow(subscription);
  }

  async remove(signal: AppendSignal): Promise<void> {
    this.signals.delete(signal);
    if (this.signals.size > 0) return;
    const subscription = this.subscription;
    const following = this.following;
    this.subscription = undefined;
    this.following = undefined;
    await subscription?.close();
    await following;
  }

  /**
   * The furthest position up to which no event after `after` matches `filter`, as far as the
   * subscription has delivered; `after` itself when it is older than what is remembered.
   */
  quietUpTo(after: number, filter: EventFilter | undefined): number {
    if (this.subscription === undefined || after < this.coveredAfter) return after;
    const before = filter && this.answered.get(filter);
    if (before?.after === after && before.matchedAt !== undefined) return before.matchedAt - 1;
    // Nothing matched up to where the last answer looked: only what came since is scanned.
    const from = before?.after === after ? before.scannedUpTo : after;
    for (let i = firstAfter(this.recent, from); i < this.recent.length; i++) {
      const appended = this.recent[i] as Appended;
      if (matchesEventFilter(appended.streamId, appended.type, filter)) {
        if (filter)
          this.answered.set(filter, {
            after,
            scannedUpTo: appended.position,
            matchedAt: appended.position,
          });
        return Math.max(after, appended.position - 1);
      }
    }
    if (filter)
      this.answered.set(filter, { after, scannedUpTo: this.latest, matchedAt: undefined });
    return Math.max(after, this.latest);
  }

  private async follow(subscription: Subscription): Promise<void> {
    try {
      for await (const event of subscription) {
        this.remember(event);
        for (const signal of this.signals) signal.eventAppended(event);
      }
    } catch {
      // The readers' polling takes over; the error itself surfaces in their reads.
    }
  }

  private remember({ position, streamId, type }: RecordedEvent): void {
    this.recent.push({ position, streamId, type });
    this.latest = position;
    // Dropped a half at a time, so that remembering stays cheap per event.
    if (this.recent.length >= 2 * REMEMBERED_APPENDS) {
      const dropped = this.recent.splice(0, REMEMBERED_APPENDS);
      this.coveredAfter = (dropped[dropped.length - 1] as Appended).position;
    }
  }
}

/** The index of the first remembered append past `after` (they are in log order). */
function firstAfter(recent: readonly Appended[], after: number): number {
  let [low, high] = [0, recent.length];
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((recent[middle] as Appended).position <= after) low = middle + 1;
    else high = middle;
  }
  return low;
}
