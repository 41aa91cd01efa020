import type { EventFilter, EventStore, RecordedEvent } from '#hawser/eventstore';

export interface LogPage {
  /** Matching events after the start, in log order, at most `maxCount`. */
  readonly events: RecordedEvent[];
  /**
   * How far the log has been examined: no event at or below this position that matches the
   * filter is missing from `events` (or was before the start). Moves on even when nothing
   * matched, which is what read-your-writes waits on.
   */
  readonly examinedUpTo: number;
  /**
   * True when the page reached the head of the log read before it (or `upTo`), a full page
   * ending there included: the reader has caught up.
   */
  readonly caughtUp: boolean;
}

export interface LogPageOptions {
  readonly filter?: EventFilter | undefined;
  readonly maxCount: number;
  /** Read nothing past this position. */
  readonly upTo?: number | undefined;
}

/**
 * Reads the next page of matching events after `after`. The head is read first: every event
 * up to it is committed, so a page shorter than asked for has examined at least to the head.
 */
export async function readLogPage(
  store: EventStore,
  after: number,
  options: LogPageOptions,
): Promise<LogPage> {
  const head = await store.headPosition();
  const limit = options.upTo ?? Number.POSITIVE_INFINITY;
  if (head <= after || limit <= after) {
    return { events: [], examinedUpTo: after, caughtUp: true };
  }
  const read = await store.readAll({ after, filter: options.filter, maxCount: options.maxCount });
  const last = read[read.length - 1];
  const full = read.length >= options.maxCount;
  const examined = full && last ? last.position : Math.max(head, last?.position ?? after);
  const events = read.filter((event) => event.position <= limit);
  return {
    events,
    examinedUpTo: Math.min(examined, limit),
    caughtUp: examined >= Math.min(head, limit),
  };
}
