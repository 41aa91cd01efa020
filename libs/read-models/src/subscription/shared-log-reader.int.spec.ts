import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { jest } from '@jest/globals';
import { SqliteEventStore, type EventFilter, type RecordedEvent } from '#hawser/eventstore';
import type { LogPage } from './log-page.js';
import { SharedLogReader } from './shared-log-reader.js';

const A: EventFilter = { streamPrefixes: ['a-'] };
const B: EventFilter = { streamPrefixes: ['b-'] };

/** A follower as the workers are: it reads from where it is and moves to what it examined. */
class Follower {
  position = 0;
  readonly seen: RecordedEvent[] = [];
  constructor(
    private readonly reader: SharedLogReader,
    private readonly filter: EventFilter,
    private readonly maxCount = 1_000,
  ) {}

  async step(): Promise<LogPage> {
    const page = await this.reader.page(this.position, {
      filter: this.filter,
      maxCount: this.maxCount,
    });
    this.seen.push(...page.events);
    this.position = page.examinedUpTo;
    return page;
  }

  async catchUp(): Promise<number> {
    let steps = 1;
    while (!(await this.step()).caughtUp) steps += 1;
    return steps;
  }
}

describe('SharedLogReader', () => {
  let dir: string;
  let store: SqliteEventStore;
  let reader: SharedLogReader;

  const append = async (stream: string, count: number) => {
    const events = Array.from({ length: count }, () => ({ id: randomUUID(), type: 'T', data: {} }));
    await store.append(stream, events, { expectedRevision: 'any' });
  };
  /** What the store holds for a filter, read on its own. */
  const logFor = async (filter: EventFilter) => (await store.readAll({ filter })).map((e) => e.id);
  const ids = (events: readonly RecordedEvent[]) => events.map((event) => event.id);

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-shared-reader-'));
    store = new SqliteEventStore({ file: path.join(dir, 'events.sqlite') });
    reader = new SharedLogReader(store, { pageSize: 10, maxCachedEvents: 20 });
  });
  afterEach(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('given two followers at one position, when both read, then the page is read once and each gets what its filter matches, the same event objects', async () => {
    await append('a-1', 3);
    await append('b-1', 2);
    await append('a-2', 1);
    const reads = jest.spyOn(store, 'readAll');
    const [first, second, third] = [
      new Follower(reader, A),
      new Follower(reader, B),
      new Follower(reader, A),
    ];

    const pages = [await first.step(), await second.step(), await third.step()];

    expect(reads).toHaveBeenCalledTimes(1);
    expect(reads.mock.calls[0]?.[0]).not.toHaveProperty('filter.streamPrefixes');
    expect(ids(first.seen)).toEqual(await logFor(A));
    expect(ids(second.seen)).toEqual(await logFor(B));
    expect(third.seen).toEqual(first.seen);
    expect(third.seen[0]).toBe(first.seen[0]);
    expect(pages.map((page) => [page.examinedUpTo, page.caughtUp])).toEqual(
      Array(3).fill([await store.headPosition(), true]),
    );
  });

  it('given a follower behind the shared pages, when it reads, then it reads on its own with its filter up to where they start, and joins them there', async () => {
    const live = new Follower(reader, A);
    for (let round = 0; round < 6; round += 1) {
      await append(`a-${round}`, 5);
      await append(`b-${round}`, 5);
      await live.catchUp();
    }
    const { start, end } = reader.span;
    expect(start).toBeGreaterThan(0);
    expect(end).toBe(await store.headPosition());
    const reads = jest.spyOn(store, 'readAll');
    const behind = new Follower(reader, B, 4);

    // On its own: reads the store with its filter, never past where the shared pages start.
    let page = await behind.step();
    while (behind.position < start) {
      expect(reads.mock.lastCall?.[0]?.filter).toEqual(B);
      expect(page.caughtUp).toBe(false);
      page = await behind.step();
    }
    expect(behind.position).toBe(start);
    const ownReads = reads.mock.calls.length;
    // Joined: the rest comes from the shared pages, without reading the store again.
    await behind.catchUp();

    expect(reads.mock.calls.length).toBe(ownReads);
    expect(behind.position).toBe(end);
    expect(ids(behind.seen)).toEqual(await logFor(B));
    expect(ids(live.seen)).toEqual(await logFor(A));
  });

  it('given a follower that stops reading (failing), when the other goes on through later appends, then it is not held up, and the first finds every event it had not handled', async () => {
    const failing = new Follower(reader, A);
    const going = new Follower(reader, A);
    await append('a-1', 2);
    await failing.step();
    await going.step();
    failing.seen.length = 0;

    for (let round = 0; round < 8; round += 1) {
      await append(`a-${round}`, 4);
      expect((await going.step()).caughtUp).toBe(true);
    }
    await failing.catchUp();

    expect(going.position).toBe(await store.headPosition());
    expect(ids(going.seen)).toEqual(await logFor(A));
    expect(ids(failing.seen)).toEqual((await logFor(A)).slice(2));
  });

  it('given a follower ahead of the shared pages, when it reads, then they start afresh at its position', async () => {
    await append('a-1', 30);
    const ahead = new Follower(reader, A);
    ahead.position = 25;

    await ahead.catchUp();

    expect(reader.span.start).toBe(25);
    expect(ids(ahead.seen)).toEqual((await logFor(A)).slice(25));
  });

  it('given a follower that asks for fewer events than a page holds, then it gets them in order, and a read with an upper limit stops there', async () => {
    await append('a-1', 12);
    const small = new Follower(reader, A, 5);

    expect((await small.step()).events).toHaveLength(5);
    const limited = await reader.page(small.position, { filter: A, maxCount: 100, upTo: 8 });

    expect(limited.events.map((event) => event.position)).toEqual([6, 7, 8]);
    expect(limited).toMatchObject({ examinedUpTo: 8, caughtUp: true });
  });
  it('given followers stepping together, then the head is read once for them, and a step after an append reads it again and takes the appended events', async () => {
    await append('a-1', 3);
    const followers = [new Follower(reader, A), new Follower(reader, A), new Follower(reader, B)];
    await followers[0]!.step();
    const heads = jest.spyOn(store, 'headPosition');

    const together = await Promise.all(followers.map((follower) => follower.step()));
    const readTogether = heads.mock.calls.length;
    await append('a-2', 2);
    const after = await followers[0]!.step();

    expect(readTogether).toBe(1);
    expect(together.map((page) => page.caughtUp)).toEqual([true, true, true]);
    expect(heads.mock.calls.length).toBeGreaterThan(readTogether);
    expect(after).toMatchObject({ examinedUpTo: 5, caughtUp: true });
    expect(ids(after.events)).toHaveLength(2);
  });

  describe('followers asleep at the end of the pages', () => {
    /** A caught-up follower put to sleep; records where the reader moved it and whether it woke. */
    const asleep = (follower: Follower, filter: EventFilter) => {
      const moves: number[] = [];
      let woke = false;
      const nap = reader.sleep(
        {
          after: follower.position,
          filter,
          passed: (upTo) => {
            moves.push(upTo);
            follower.position = upTo;
          },
        },
        60_000,
      );
      void nap.woken.then(() => (woke = true));
      return { nap, moves, woke: async () => (await settled(), woke) };
    };
    /** Lets resolved promises run. */
    const settled = () => new Promise((resolve) => setImmediate(resolve));

    it("given a follower asleep, when pages read hold nothing it follows, then it is moved to each page's end without waking; when one holds an event it follows, it wakes where it was", async () => {
      await append('a-1', 2);
      const sleeping = new Follower(reader, B);
      await sleeping.catchUp();
      const sleeper = asleep(sleeping, B);

      await append('a-2', 3);
      reader.lookNow();
      await settled();
      const movedTo = sleeping.position;
      const wokeOnA = await sleeper.woke();
      await append('b-1', 1);
      await append('a-3', 1);
      reader.lookNow();
      const wokeOnB = await sleeper.woke();

      expect(movedTo).toBe(5);
      expect(sleeper.moves).toEqual([5]);
      expect(wokeOnA).toBe(false);
      expect(wokeOnB).toBe(true);
      expect(sleeping.position).toBe(5);
      // Awake, its own read finds the event it follows.
      await sleeping.catchUp();
      expect(ids(sleeping.seen)).toEqual(await logFor(B));
    });

    it('given many followers asleep, when a burst of appends is looked for once per event, then the log is read once for all of them', async () => {
      const followers = Array.from({ length: 10 }, () => new Follower(reader, B));
      for (const follower of followers) await follower.catchUp();
      const sleepers = followers.map((follower) => asleep(follower, B));
      const reads = jest.spyOn(store, 'readAll');

      for (let n = 0; n < 5; n += 1) await append(`a-${n}`, 1);
      // As the append signal does: once per appended event, for the burst.
      for (let n = 0; n < 5; n += 1) reader.lookNow();
      for (let turn = 0; turn < 5; turn += 1) await settled();

      expect(reads).toHaveBeenCalledTimes(1);
      expect(followers.map((follower) => follower.position)).toEqual(Array(10).fill(5));
      for (const sleeper of sleepers) expect(await sleeper.woke()).toBe(false);
      for (const sleeper of sleepers) sleeper.nap.wake();
    });

    it('given a follower asleep behind where the pages went on without it, or ahead of them, then it is woken at once to read on its own', async () => {
      await append('a-1', 30);
      const lagging = new Follower(reader, A);
      lagging.position = 0;
      const ahead = new Follower(reader, A);
      ahead.position = 25;
      await ahead.catchUp();

      const behind = asleep(lagging, A);
      const beyond = asleep(Object.assign(new Follower(reader, A), { position: 40 }), A);

      expect(await behind.woke()).toBe(true);
      expect(await beyond.woke()).toBe(true);
      expect(behind.moves).toEqual([]);
    });

    it('given a follower asleep, when woken by its owner (a pause), then later pages do not move it', async () => {
      await append('a-1', 2);
      const held = new Follower(reader, B);
      await held.catchUp();
      const sleeper = asleep(held, B);

      sleeper.nap.wake();
      await append('a-2', 3);
      reader.lookNow();
      await settled();
      await new Follower(reader, A).catchUp();

      expect(await sleeper.woke()).toBe(true);
      expect(held.position).toBe(2);
      expect(sleeper.moves).toEqual([]);
    });
  });
});
