import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from '@jest/globals';
import {
  WrongExpectedRevisionError,
  type EventMetadata,
  type EventStore,
  type NewEvent,
  type RecordedEvent,
  type Subscription,
} from './event-store.port.js';
import { UpcasterRegistry } from './upcaster-registry.js';

/** Opens a store for one test; the suite closes it when the test ends. */
export type EventStoreFactory = (options: {
  upcasters?: UpcasterRegistry;
}) => EventStore | Promise<EventStore>;

const WAIT_MS = 5_000;
/** Longer than any adapter's poll interval, so a duplicate delivery would have arrived. */
const QUIET_MS = 250;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A token that no other test (nor an earlier run on a long-lived server) uses. */
const uniqueTag = () => `t${randomUUID().replace(/-/g, '').slice(0, 12)}`;

const newEvent = (type: string, data: unknown, metadata?: EventMetadata): NewEvent => ({
  id: randomUUID(),
  type,
  data,
  ...(metadata !== undefined && { metadata }),
});

/** Consumes a subscription in the background, as a projection's `for await` loop would. */
class SubscriptionCollector {
  readonly received: RecordedEvent[] = [];
  readonly finished: Promise<void>;

  constructor(readonly subscription: Subscription) {
    this.finished = (async () => {
      for await (const event of subscription) this.received.push(event);
    })();
  }

  async waitFor(count: number): Promise<RecordedEvent[]> {
    const deadline = Date.now() + WAIT_MS;
    while (this.received.length < count) {
      if (Date.now() > deadline) {
        throw new Error(`received ${this.received.length} of ${count} events`);
      }
      await sleep(5);
    }
    return this.received;
  }

  async close(): Promise<void> {
    await this.subscription.close();
    await this.finished;
  }
}

/**
 * The behaviour every EventStore adapter must show. Streams and event types carry a random
 * tag, so the suite also runs against a long-lived server that holds other data.
 */
export function eventStoreContract(createStore: EventStoreFactory): void {
  let opened: EventStore[] = [];
  let collectors: SubscriptionCollector[] = [];

  const openStore = async (upcasters?: UpcasterRegistry): Promise<EventStore> => {
    const store = await createStore(upcasters === undefined ? {} : { upcasters });
    opened.push(store);
    return store;
  };

  const collect = (subscription: Subscription): SubscriptionCollector => {
    const collector = new SubscriptionCollector(subscription);
    collectors.push(collector);
    return collector;
  };

  afterEach(async () => {
    await Promise.all(collectors.map((collector) => collector.close()));
    await Promise.all(opened.map((store) => store.close()));
    opened = [];
    collectors = [];
  });

  describe('append', () => {
    it('writes a batch atomically at consecutive revisions and reports the last one', async () => {
      const store = await openStore();
      const stream = `${uniqueTag()}-share-1`;
      const batch = [
        newEvent('ShareRequested', { size: 1 }),
        newEvent('ShareScheduled', { host: 'node1@lvm#pool' }),
        newEvent('ShareCreated', { exportLocations: [] }),
      ];

      const result = await store.append(stream, batch, { expectedRevision: 'no_stream' });

      const read = await store.readStream(stream);
      expect(read.map((e) => [e.id, e.type, e.revision, e.streamId])).toEqual(
        batch.map((e, index) => [e.id, e.type, index, stream]),
      );
      expect(read.map((e) => e.data)).toEqual(batch.map((e) => e.data));
      expect(result).toEqual({ nextRevision: 2, position: read[2]?.position });
      const positions = read.map((e) => e.position);
      expect([...positions].sort((a, b) => a - b)).toEqual(positions);
      expect(new Set(positions).size).toBe(3);
      expect(await store.headPosition()).toBeGreaterThanOrEqual(result.position);
    });

    it('rejects a batch that holds the same event id twice, and writes nothing', async () => {
      const store = await openStore();
      const stream = `${uniqueTag()}-share-1`;
      const first = newEvent('ShareRequested', {});

      await expect(
        store.append(stream, [first, { ...first, type: 'ShareScheduled' }], {
          expectedRevision: 'any',
        }),
      ).rejects.toThrow(first.id);

      expect(await store.readStream(stream)).toEqual([]);
    });
  });

  describe('expected revision', () => {
    it('no_stream creates a stream, and fails on an existing one without writing', async () => {
      const store = await openStore();
      const stream = `${uniqueTag()}-share-1`;
      await store.append(stream, [newEvent('ShareRequested', {})], {
        expectedRevision: 'no_stream',
      });

      const second = store.append(stream, [newEvent('ShareRequested', {})], {
        expectedRevision: 'no_stream',
      });

      await expect(second).rejects.toBeInstanceOf(WrongExpectedRevisionError);
      await expect(second).rejects.toMatchObject({
        streamId: stream,
        expected: 'no_stream',
        actual: 0,
      });
      expect(await store.readStream(stream)).toHaveLength(1);
    });

    it('stream_exists fails on a missing stream and appends to an existing one', async () => {
      const store = await openStore();
      const stream = `${uniqueTag()}-share-1`;

      const onMissing = store.append(stream, [newEvent('ShareUpdated', {})], {
        expectedRevision: 'stream_exists',
      });
      await expect(onMissing).rejects.toMatchObject({
        name: 'WrongExpectedRevisionError',
        actual: 'no_stream',
      });
      expect(await store.readStream(stream)).toEqual([]);

      await store.append(stream, [newEvent('ShareRequested', {})], { expectedRevision: 'any' });
      const result = await store.append(stream, [newEvent('ShareUpdated', {})], {
        expectedRevision: 'stream_exists',
      });
      expect(result.nextRevision).toBe(1);
    });

    it('any appends whatever the stream holds', async () => {
      const store = await openStore();
      const stream = `${uniqueTag()}-share-1`;

      const created = await store.append(stream, [newEvent('ShareRequested', {})], {
        expectedRevision: 'any',
      });
      const appended = await store.append(stream, [newEvent('ShareUpdated', {})], {
        expectedRevision: 'any',
      });

      expect([created.nextRevision, appended.nextRevision]).toEqual([0, 1]);
    });

    it('an exact revision appends when current, and a stale one fails without writing', async () => {
      const store = await openStore();
      const stream = `${uniqueTag()}-share-1`;
      await store.append(stream, [newEvent('ShareRequested', {}), newEvent('ShareScheduled', {})], {
        expectedRevision: 'no_stream',
      });

      const current = await store.append(stream, [newEvent('ShareCreated', {})], {
        expectedRevision: 1,
      });
      const stale = store.append(
        stream,
        [newEvent('ShareUpdated', {}), newEvent('ShareUpdated', {})],
        { expectedRevision: 1 },
      );

      expect(current.nextRevision).toBe(2);
      await expect(stale).rejects.toBeInstanceOf(WrongExpectedRevisionError);
      await expect(stale).rejects.toMatchObject({ expected: 1, actual: 2 });
      expect((await store.readStream(stream)).map((e) => e.type)).toEqual([
        'ShareRequested',
        'ShareScheduled',
        'ShareCreated',
      ]);
    });

    it('a revision ahead of the stream fails without writing, leaving no gap', async () => {
      const store = await openStore();
      const stream = `${uniqueTag()}-share-1`;
      await store.append(stream, [newEvent('ShareRequested', {})], {
        expectedRevision: 'no_stream',
      });
      const missing = `${uniqueTag()}-share-2`;

      const ahead = store.append(stream, [newEvent('ShareCreated', {})], { expectedRevision: 3 });
      const onMissing = store.append(missing, [newEvent('ShareCreated', {})], {
        expectedRevision: 0,
      });

      await expect(ahead).rejects.toMatchObject({ expected: 3, actual: 0 });
      await expect(onMissing).rejects.toMatchObject({ expected: 0, actual: 'no_stream' });
      expect((await store.readStream(stream)).map((e) => e.revision)).toEqual([0]);
      expect(await store.readStream(missing)).toEqual([]);
    });
  });

  describe('idempotence by event id', () => {
    it('a retried append writes nothing and returns the original result', async () => {
      const store = await openStore();
      const stream = `${uniqueTag()}-share-1`;
      const batch = [newEvent('ShareRequested', {}), newEvent('ShareScheduled', {})];
      const original = await store.append(stream, batch, { expectedRevision: 'no_stream' });
      const before = await store.readStream(stream);

      const retried = await store.append(stream, batch, { expectedRevision: 'no_stream' });

      expect(retried).toEqual(original);
      expect(await store.readStream(stream)).toEqual(before);
    });

    it('a retry expecting any revision writes nothing and returns the original result', async () => {
      const store = await openStore();
      const stream = `${uniqueTag()}-share-1`;
      await store.append(stream, [newEvent('ShareRequested', {})], { expectedRevision: 'any' });
      for (const batch of [
        [newEvent('ShareScheduled', {})],
        [newEvent('ShareCreated', {}), newEvent('ShareUpdated', {})],
      ]) {
        const original = await store.append(stream, batch, { expectedRevision: 'any' });
        const before = await store.readStream(stream);

        const retried = await store.append(stream, batch, { expectedRevision: 'any' });

        expect(retried).toEqual(original);
        expect(await store.readStream(stream)).toEqual(before);
      }
    });

    it('a retry that arrives after later appends still writes nothing', async () => {
      const store = await openStore();
      const stream = `${uniqueTag()}-share-1`;
      const batch = [newEvent('ShareRequested', {}), newEvent('ShareScheduled', {})];
      const original = await store.append(stream, batch, { expectedRevision: 'no_stream' });
      await store.append(stream, [newEvent('ShareCreated', {})], { expectedRevision: 1 });

      const retried = await store.append(stream, batch, { expectedRevision: 'no_stream' });

      expect(retried).toEqual(original);
      expect((await store.readStream(stream)).map((e) => e.id)).toEqual([
        ...batch.map((e) => e.id),
        expect.any(String),
      ]);
    });

    it('rejects a batch in which only some ids are stored, and writes nothing', async () => {
      const store = await openStore();
      const stream = `${uniqueTag()}-share-1`;
      const batch = [newEvent('ShareRequested', {}), newEvent('ShareScheduled', {})];
      await store.append(stream, batch, { expectedRevision: 'no_stream' });

      const grown = store.append(stream, [...batch, newEvent('ShareCreated', {})], {
        expectedRevision: 'no_stream',
      });

      await expect(grown).rejects.toThrow(Error);
      expect((await store.readStream(stream)).map((e) => e.id)).toEqual(batch.map((e) => e.id));
    });
  });

  describe('readStream', () => {
    const fiveEvents = async (store: EventStore, stream: string) => {
      const events = [0, 1, 2, 3, 4].map((n) => newEvent('ShareUpdated', { n }));
      await store.append(stream, events, { expectedRevision: 'no_stream' });
    };
    const revisions = (events: RecordedEvent[]) => events.map((e) => e.revision);

    it('reads forwards from a revision, bounded by maxCount', async () => {
      const store = await openStore();
      const stream = `${uniqueTag()}-share-1`;
      await fiveEvents(store, stream);

      expect(revisions(await store.readStream(stream))).toEqual([0, 1, 2, 3, 4]);
      expect(revisions(await store.readStream(stream, { fromRevision: 2, maxCount: 2 }))).toEqual([
        2, 3,
      ]);
      expect(revisions(await store.readStream(stream, { fromRevision: 3 }))).toEqual([3, 4]);
    });

    it('reads backwards from the end or from a revision', async () => {
      const store = await openStore();
      const stream = `${uniqueTag()}-share-1`;
      await fiveEvents(store, stream);

      const fromEnd = await store.readStream(stream, { direction: 'backwards', maxCount: 2 });
      const fromOne = await store.readStream(stream, { direction: 'backwards', fromRevision: 1 });

      expect(revisions(fromEnd)).toEqual([4, 3]);
      expect(fromEnd.map((e) => e.data)).toEqual([{ n: 4 }, { n: 3 }]);
      expect(revisions(fromOne)).toEqual([1, 0]);
    });

    it('returns no events for a stream that does not exist', async () => {
      const store = await openStore();

      expect(await store.readStream(`${uniqueTag()}-share-missing`)).toEqual([]);
    });
  });

  describe('readAll', () => {
    /** Five events in two share streams and one quota stream, all under a fresh tag. */
    const givenTaggedLog = async (store: EventStore) => {
      const tag = uniqueTag();
      const types = { requested: `${tag}Requested`, created: `${tag}Created` };
      await store.append(
        `${tag}-share-1`,
        [newEvent(types.requested, { n: 1 }), newEvent(types.created, { n: 2 })],
        { expectedRevision: 'no_stream' },
      );
      await store.append(`${tag}-quota-p1`, [newEvent(`${tag}Reserved`, { n: 3 })], {
        expectedRevision: 'no_stream',
      });
      await store.append(
        `${tag}-share-2`,
        [newEvent(types.requested, { n: 4 }), newEvent(types.created, { n: 5 })],
        { expectedRevision: 'no_stream' },
      );
      return { tag, types };
    };
    const numbers = (events: RecordedEvent[]) => events.map((e) => (e.data as { n: number }).n);

    it('pages forwards with an exclusive position and maxCount', async () => {
      const store = await openStore();
      const { tag } = await givenTaggedLog(store);
      const filter = { streamPrefixes: [`${tag}-`] };

      const pages: number[][] = [];
      let after: number | undefined;
      for (;;) {
        const page = await store.readAll({ after, maxCount: 2, filter });
        if (page.length === 0) break;
        pages.push(numbers(page));
        after = page[page.length - 1]?.position;
      }

      expect(pages).toEqual([[1, 2], [3, 4], [5]]);
    });

    it('reads backwards from the end, and from an exclusive position', async () => {
      const store = await openStore();
      const { tag } = await givenTaggedLog(store);
      const filter = { streamPrefixes: [`${tag}-`] };

      const all = await store.readAll({ direction: 'backwards', filter });
      const beforeThird = await store.readAll({
        direction: 'backwards',
        after: all[2]?.position,
        maxCount: 1,
        filter,
      });

      expect(numbers(all)).toEqual([5, 4, 3, 2, 1]);
      expect(numbers(beforeThird)).toEqual([2]);
    });

    it('filters by stream prefixes, by event types, and by both together', async () => {
      const store = await openStore();
      const { tag, types } = await givenTaggedLog(store);

      const byPrefixes = await store.readAll({
        filter: { streamPrefixes: [`${tag}-share-1`, `${tag}-quota-`] },
      });
      const byTypes = await store.readAll({
        filter: { eventTypes: [types.created, `${tag}Reserved`] },
      });
      const byBoth = await store.readAll({
        filter: { streamPrefixes: [`${tag}-share-2`], eventTypes: [types.requested] },
      });

      expect(numbers(byPrefixes)).toEqual([1, 2, 3]);
      expect(numbers(byTypes)).toEqual([2, 3, 5]);
      expect(numbers(byBoth)).toEqual([4]);
    });
  });

  describe('subscribeToAll', () => {
    it('catches up on stored events, then delivers new ones live, in order, once each', async () => {
      const store = await openStore();
      const tag = uniqueTag();
      const start = await store.headPosition();
      await store.append(`${tag}-share-1`, [newEvent('ShareRequested', { n: 1 })], {
        expectedRevision: 'no_stream',
      });
      await store.append(`${tag}-share-2`, [newEvent('ShareRequested', { n: 2 })], {
        expectedRevision: 'no_stream',
      });

      const collector = collect(
        store.subscribeToAll({ after: start, filter: { streamPrefixes: [`${tag}-`] } }),
      );
      await collector.waitFor(2);
      await store.append(
        `${tag}-share-1`,
        [newEvent('ShareScheduled', { n: 3 }), newEvent('ShareCreated', { n: 4 })],
        { expectedRevision: 0 },
      );
      await store.append(`${tag}-share-3`, [newEvent('ShareRequested', { n: 5 })], {
        expectedRevision: 'no_stream',
      });
      await collector.waitFor(5);
      await sleep(QUIET_MS);

      expect(collector.received.map((e) => (e.data as { n: number }).n)).toEqual([1, 2, 3, 4, 5]);
      const positions = collector.received.map((e) => e.position);
      expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    });

    it('delivers only the events that match a prefix or a type filter', async () => {
      const store = await openStore();
      const tag = uniqueTag();
      const start = await store.headPosition();
      const byPrefix = collect(
        store.subscribeToAll({ after: start, filter: { streamPrefixes: [`${tag}-quota-`] } }),
      );
      const byType = collect(
        store.subscribeToAll({ after: start, filter: { eventTypes: [`${tag}Created`] } }),
      );

      await store.append(
        `${tag}-share-1`,
        [newEvent(`${tag}Requested`, { n: 1 }), newEvent(`${tag}Created`, { n: 2 })],
        { expectedRevision: 'no_stream' },
      );
      await store.append(`${tag}-quota-p1`, [newEvent(`${tag}Reserved`, { n: 3 })], {
        expectedRevision: 'no_stream',
      });
      await store.append(`${tag}-share-2`, [newEvent(`${tag}Created`, { n: 4 })], {
        expectedRevision: 'no_stream',
      });
      await byPrefix.waitFor(1);
      await byType.waitFor(2);
      await sleep(QUIET_MS);

      expect(byPrefix.received.map((e) => e.data)).toEqual([{ n: 3 }]);
      expect(byType.received.map((e) => e.data)).toEqual([{ n: 2 }, { n: 4 }]);
    });

    it('resumes strictly after a checkpoint', async () => {
      const store = await openStore();
      const tag = uniqueTag();
      const stream = `${tag}-share-1`;
      await store.append(
        stream,
        [1, 2, 3].map((n) => newEvent('ShareUpdated', { n })),
        {
          expectedRevision: 'no_stream',
        },
      );
      const [, second] = await store.readStream(stream);

      const collector = collect(
        store.subscribeToAll({ after: second?.position, filter: { streamPrefixes: [stream] } }),
      );
      await collector.waitFor(1);
      await sleep(QUIET_MS);

      expect(collector.received.map((e) => e.data)).toEqual([{ n: 3 }]);
    });

    it('ends the consumer loop promptly when closed while waiting for events', async () => {
      const store = await openStore();
      const subscription = store.subscribeToAll({
        after: await store.headPosition(),
        filter: { streamPrefixes: [`${uniqueTag()}-`] },
      });
      let ended = false;
      const loop = (async () => {
        for await (const event of subscription) throw new Error(`unexpected ${event.type}`);
        ended = true;
      })();
      await sleep(50);

      const closedAt = Date.now();
      await subscription.close();
      await loop;

      expect(ended).toBe(true);
      expect(Date.now() - closedAt).toBeLessThan(1_000);
    });
  });

  describe('metadata', () => {
    it('keeps what the writer gave, and adds the schema version and the recording time', async () => {
      const store = await openStore();
      const stream = `${uniqueTag()}-share-1`;
      const metadata: EventMetadata = {
        $correlationId: randomUUID(),
        $causationId: randomUUID(),
        commandId: randomUUID(),
        userId: 'user-1',
        projectId: 'project-1',
        requestId: 'req-0d6f0b1c',
        microversion: '2.65',
        origin: { host: 'node1' },
      };
      const before = Date.now();

      await store.append(stream, [newEvent('ShareRequested', {}, metadata)], {
        expectedRevision: 'no_stream',
      });
      await store.append(
        stream,
        [newEvent('ShareScheduled', {}, { recordedAt: '2024-01-02T03:04:05.000Z' })],
        { expectedRevision: 0 },
      );

      const [first, second] = await store.readStream(stream);
      expect(first?.metadata).toEqual({
        ...metadata,
        schemaVersion: 1,
        recordedAt: expect.any(String),
      });
      const recordedAt = Date.parse(first?.metadata.recordedAt ?? '');
      expect(recordedAt).toBeGreaterThanOrEqual(before - 1_000);
      expect(recordedAt).toBeLessThanOrEqual(Date.now() + 1_000);
      expect(second?.metadata.recordedAt).toBe('2024-01-02T03:04:05.000Z');
    });
  });

  describe('upcasting', () => {
    it('reads an event stored in an older schema version in the current shape', async () => {
      const tag = uniqueTag();
      const type = `${tag}ShareRequested`;
      const upcasters = new UpcasterRegistry()
        .register(type, 1, (data) => ({
          ...(data as object),
          sizeGb: (data as { size: number }).size,
        }))
        .register(type, 2, (data) => ({ ...(data as object), shareType: 'default' }));
      const store = await openStore(upcasters);
      const stream = `${tag}-share-1`;
      const start = await store.headPosition();

      await store.append(
        stream,
        [
          newEvent(type, { size: 10 }, { schemaVersion: 1 }),
          newEvent(type, { size: 20, sizeGb: 20, shareType: 'gold' }),
        ],
        { expectedRevision: 'no_stream' },
      );
      const collector = collect(
        store.subscribeToAll({ after: start, filter: { streamPrefixes: [stream] } }),
      );

      const upcastOld = { data: { size: 10, sizeGb: 10, shareType: 'default' }, version: 3 };
      const current = { data: { size: 20, sizeGb: 20, shareType: 'gold' }, version: 3 };
      const shapes = (events: RecordedEvent[]) =>
        events.map((e) => ({ data: e.data, version: e.metadata.schemaVersion }));
      expect(shapes(await store.readStream(stream))).toEqual([upcastOld, current]);
      expect(shapes(await store.readAll({ filter: { streamPrefixes: [stream] } }))).toEqual([
        upcastOld,
        current,
      ]);
      expect(shapes(await collector.waitFor(2))).toEqual([upcastOld, current]);
    });
  });
}
