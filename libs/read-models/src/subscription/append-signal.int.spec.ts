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

  const append = () =>
    store.append('thing-1', [{ id: randomUUID(), type: 'T', data: {} }], {
      expectedRevision: 'any',
    });

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
