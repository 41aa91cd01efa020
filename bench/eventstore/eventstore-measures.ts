import { randomUUID } from 'node:crypto';
import type { EventStore, NewEvent } from '#hawser/eventstore';
import { seedShareEvents } from './seed-share-events.js';

export interface Measure {
  readonly name: string;
  /** Events written or read. */
  readonly events: number;
  /** Appends (commits) made, for write measures. */
  readonly appends?: number;
  readonly seconds: number;
  /**
   * CPU time the process spent meanwhile (user and system, all threads), for measures whose
   * work is all in this process: on a shared machine it shows how much of `seconds` was work.
   */
  readonly cpuSeconds?: number;
  readonly perSecond: number;
  readonly unit: 'events/s' | 'appends/s';
}

const timed = async (run: () => Promise<number>): Promise<{ count: number; seconds: number }> => {
  const started = process.hrtime.bigint();
  const count = await run();
  return { count, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
};

/** A metadata change of realistic size (about 400 bytes of JSON with its metadata). */
const metadataChange = (stream: string, n: number): NewEvent => ({
  id: randomUUID(),
  type: 'ShareMetadataChanged',
  data: {
    set: { owner: `team-${n % 12}`, tier: 'gold' },
    unset: [],
    updatedAt: new Date().toISOString(),
  },
  metadata: {
    $correlationId: stream,
    $causationId: randomUUID(),
    commandId: randomUUID(),
    userId: 'user-1',
    projectId: 'project-1',
  },
});

/** Times only the append calls: building the events is the caller's cost, not the store's. */
class AppendClock {
  seconds = 0;

  async append(store: EventStore, stream: string, events: NewEvent[]): Promise<void> {
    const started = process.hrtime.bigint();
    await store.append(stream, events, { expectedRevision: 'no_stream' });
    this.seconds += Number(process.hrtime.bigint() - started) / 1e9;
  }
}

/** One event per append, each to a new stream, as independent user commands would. */
export async function measureSingleEventAppends(
  store: EventStore,
  appends: number,
): Promise<Measure> {
  const run = `share-${randomUUID().slice(0, 8)}`;
  const clock = new AppendClock();
  for (let n = 0; n < appends; n += 1) {
    const stream = `${run}-${n}`;
    await clock.append(store, stream, [metadataChange(stream, n)]);
  }
  const seconds = clock.seconds;
  return {
    name: 'append, 1 event per append',
    events: appends,
    appends,
    seconds,
    perSecond: appends / seconds,
    unit: 'appends/s',
  };
}

/** `batchSize` events per append, each batch to its own stream. */
export async function measureBatchedAppends(
  store: EventStore,
  events: number,
  batchSize: number,
): Promise<Measure> {
  const run = `share-${randomUUID().slice(0, 8)}`;
  const appends = Math.ceil(events / batchSize);
  const clock = new AppendClock();
  for (let n = 0; n < appends; n += 1) {
    const stream = `${run}-${n}`;
    const size = Math.min(batchSize, events - n * batchSize);
    await clock.append(
      store,
      stream,
      Array.from({ length: size }, (_, i) => metadataChange(stream, i)),
    );
  }
  const seconds = clock.seconds;
  return {
    name: `append, ${batchSize} events per append`,
    events,
    appends,
    seconds,
    perSecond: events / seconds,
    unit: 'events/s',
  };
}

/** Share streams of five events, one append per stream (the shape later sections rebuild from). */
export async function measureShareSeeding(store: EventStore, events: number): Promise<Measure> {
  let appends = 0;
  const { seconds } = await timed(async () => {
    const seeded = await seedShareEvents(store, events);
    appends = seeded.streams;
    return seeded.events;
  });
  return {
    name: 'seed share streams (incl. building events)',
    events,
    appends,
    seconds,
    perSecond: events / seconds,
    unit: 'events/s',
  };
}

/** Reads the whole global log from position 0, page after page. */
export async function measureGlobalRead(store: EventStore, pageSize: number): Promise<Measure> {
  const { count, seconds } = await timed(async () => {
    let read = 0;
    let after = 0;
    for (;;) {
      const page = await store.readAll({ after, maxCount: pageSize });
      const last = page[page.length - 1];
      if (last === undefined) return read;
      read += page.length;
      after = last.position;
    }
  });
  return {
    name: `read all, pages of ${pageSize}`,
    events: count,
    seconds,
    perSecond: count / seconds,
    unit: 'events/s',
  };
}

/** A subscription from the start of the log until it has delivered the current head. */
export async function measureSubscriptionCatchUp(store: EventStore): Promise<Measure> {
  const head = await store.headPosition();
  const { count, seconds } = await timed(async () => {
    let delivered = 0;
    const subscription = store.subscribeToAll();
    for await (const event of subscription) {
      delivered += 1;
      if (event.position >= head) break;
    }
    await subscription.close();
    return delivered;
  });
  return {
    name: 'subscription catch-up from 0',
    events: count,
    seconds,
    perSecond: count / seconds,
    unit: 'events/s',
  };
}
