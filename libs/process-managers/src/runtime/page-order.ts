import type { RecordedEvent } from '#hawser/eventstore';

/** One event's handling: its outcome, or undefined when the worker stopped before it was done. */
export type HandleEvent<Outcome> = (event: RecordedEvent) => Promise<Outcome | undefined>;

/**
 * Handles a page one event at a time in log order, stopping at the first left undefined.
 * The outcomes line up with the events; those not reached are undefined.
 */
export async function inLogOrder<Outcome>(
  events: readonly RecordedEvent[],
  handle: HandleEvent<Outcome>,
): Promise<(Outcome | undefined)[]> {
  const outcomes: (Outcome | undefined)[] = Array.from({ length: events.length });
  for (const [index, event] of events.entries()) {
    outcomes[index] = await handle(event);
    if (outcomes[index] === undefined) break;
  }
  return outcomes;
}

/**
 * Handles a page stream by stream: each stream's events one at a time in log order, the
 * streams side by side, so that their reactions reach the store together (one group commit
 * for the appends of a page instead of one each). A stream stops at its first event left
 * undefined. The outcomes line up with the events; those not reached are undefined.
 */
export async function streamsSideBySide<Outcome>(
  events: readonly RecordedEvent[],
  handle: HandleEvent<Outcome>,
): Promise<(Outcome | undefined)[]> {
  const outcomes: (Outcome | undefined)[] = Array.from({ length: events.length });
  const byStream = new Map<string, number[]>();
  events.forEach((event, index) => {
    const indexes = byStream.get(event.streamId);
    if (indexes === undefined) byStream.set(event.streamId, [index]);
    else indexes.push(index);
  });
  await Promise.all(
    [...byStream.values()].map(async (indexes) => {
      for (const index of indexes) {
        outcomes[index] = await handle(events[index] as RecordedEvent);
        if (outcomes[index] === undefined) return;
      }
    }),
  );
  return outcomes;
}
