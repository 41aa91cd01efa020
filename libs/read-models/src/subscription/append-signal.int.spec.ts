import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { jest } from '@jest/globals';
import { SqliteEventStore } from '#hawser/eventstore';
import { AppendSignal } from './append-signal.js';

/** Long enough that a wake by polling would never come within a test. */
const NO_POLL_MS = 60_000;

describe('AppendSignal', () => {
  let dir: string;
  let store: SqliteEventStore;

  const append = (stream = 'thing-1') =>
    store.append(stream, [{ id: randomUUID(), type: 'T', data: {} }], {
      expectedRevision: 'any',
    });
  /** Whether `promise` has settled once the subscription had a few turns to deliver. */
  const settled = async (promise: Promise<void>) => {
    let done = false;
    void promise.then(() => (done = true));
    for (let turn = 0; turn < 20; turn += 1) await new Promise((r) => setTimeout(r, 5));
    return done;
  };

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-append-signal-'));
    store = new SqliteEventStore({ file: path.join(dir, 'events.sqlite') });
  });
  afterEach(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('given two signals open on one store, when an event is appended, then both wake, from one subscription of the store', async () => {
    const subscribe = jest.spyOn(store, 'subscribeToAll');
    const [first, second] = [new AppendSignal(store), new AppendSignal(store)];
    await first.open();
    await second.open();
    const waits = [first.wait(first.version, NO_POLL_MS), second.wait(second.version, NO_POLL_MS)];

    await append();
    await Promise.all(waits);

    expect(subscribe).toHaveBeenCalledTimes(1);
    await first.close();
    await second.close();
  });

  it('given a reader waiting with an interest, when an event it does not follow is appended, then it sleeps on and counts as past it; when one it follows is appended, it wakes and counts as before it', async () => {
    const signal = new AppendSignal(store);
    await signal.open();
    const interest = { after: 0, filter: { streamPrefixes: ['share-'] } };
    const waiting = signal.wait(signal.version, NO_POLL_MS, interest);

    const { position: unrelated } = await append('thing-1');
    const sleptThrough = !(await settled(waiting));
    const reachAfterUnrelated = signal.reach(0, interest.filter);
    const { position: followed } = await append('share-1');
    const woke = await settled(waiting);

    expect(sleptThrough).toBe(true);
    expect(reachAfterUnrelated).toBe(unrelated);
    expect(woke).toBe(true);
    expect(signal.reach(0, interest.filter)).toBe(followed - 1);
    // Without a filter every event concerns the reader: it counts as past nothing unseen.
    expect(signal.reach(0, undefined)).toBe(0);
    await signal.close();
  });

  it('given a reader that saw an event it follows appended before it began to wait, when it waits, then it does not sleep', async () => {
    const signal = new AppendSignal(store);
    await signal.open();
    const version = signal.version;
    await append('share-1');
    await settled(Promise.resolve());

    const woke = await settled(
      signal.wait(version, NO_POLL_MS, { after: 0, filter: { streamPrefixes: ['share-'] } }),
    );

    expect(woke).toBe(true);
    await signal.close();
  });

  it('given one of two signals closed, then the other still wakes on appends, and after the last closes a new one subscribes again', async () => {
    const subscribe = jest.spyOn(store, 'subscribeToAll');
    const [closing, staying] = [new AppendSignal(store), new AppendSignal(store)];
    await closing.open();
    await staying.open();
    await closing.close();
    const version = closing.version;

    const waiting = staying.wait(staying.version, NO_POLL_MS);
    await append();
    await waiting;
    await staying.close();
    const later = new AppendSignal(store);
    await later.open();
    const laterWaiting = later.wait(later.version, NO_POLL_MS);
    await append();
    await laterWaiting;

    expect(closing.version).toBe(version);
    expect(subscribe).toHaveBeenCalledTimes(2);
    await later.close();
  });
});
