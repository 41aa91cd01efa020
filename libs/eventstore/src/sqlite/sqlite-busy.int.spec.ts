import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { NewEvent } from '../event-store.port.js';
import { storageFailureOf } from '../storage/storage-failure.js';
import { walCommits } from '../test-support/wal-commits.js';
import { WriteLockHolder } from '../test-support/write-lock-holder.js';
import { SqliteEventStore } from './sqlite-event-store.js';

const BUSY_TIMEOUT_MS = 200;
const newEvent = (): NewEvent => ({ id: randomUUID(), type: 'Appended', data: {} });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Another connection to the same file (as another process would) holds the write lock: an
 * append waits for it on a timer, so the process goes on with other work, and appends
 * submitted meanwhile join its batch; one that cannot get it within the busy time-out fails as
 * a `busy` storage failure and writes nothing, and the same append goes through once the lock
 * is free.
 */
describe('the SQLite event store when another connection holds the write lock', () => {
  let dir: string;
  let file: string;
  let store: SqliteEventStore;
  let other: WriteLockHolder;
  const eventsInFile = () =>
    other.connection.prepare('SELECT COUNT(*) FROM events').pluck().get() as number;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-busy-'));
    file = path.join(dir, 'events.sqlite');
    store = new SqliteEventStore({ file, busyTimeoutMs: BUSY_TIMEOUT_MS });
    other = new WriteLockHolder(file);
  });
  afterEach(async () => {
    other.close();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('given the lock held past the busy time-out, when a batch of appends is submitted, then each fails as busy and the log holds none of their events', async () => {
    await store.append('share-a', [newEvent()], { expectedRevision: 'no_stream' });
    other.hold();
    const started = performance.now();

    const outcomes = await Promise.allSettled([
      store.append('share-a', [newEvent(), newEvent()], { expectedRevision: 0 }),
      store.append('share-b', [newEvent()], { expectedRevision: 'no_stream' }),
    ]);

    const waited = performance.now() - started;
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    for (const outcome of outcomes) {
      const error = (outcome as PromiseRejectedResult).reason as { code?: unknown };
      expect(error.code).toBe('SQLITE_BUSY');
      expect(storageFailureOf(error)).toBe('busy');
    }
    expect(waited).toBeGreaterThanOrEqual(BUSY_TIMEOUT_MS * 0.9);
    expect(eventsInFile()).toBe(1);
    expect(await store.readStream('share-b')).toEqual([]);
  });

  it('given the lock held for less than the busy time-out, when an append waits for it, then the process runs its timers meanwhile and the append commits once the lock is free', async () => {
    other.hold();
    let ticks = 0;
    // Released by the process's own timer: waiting in SQLite's busy handler would have held
    // the thread, and the release with it, until the time-out.
    const ticking = setInterval(() => {
      ticks += 1;
      if (ticks === 5) other.release();
    }, 5);

    const appended = await store
      .append('share-a', [newEvent()], { expectedRevision: 'no_stream' })
      .finally(() => clearInterval(ticking));

    expect(ticks).toBeGreaterThanOrEqual(5);
    expect(appended.nextRevision).toBe(0);
    expect(eventsInFile()).toBe(1);
  });

  it('given an append waiting for the lock, when more appends are submitted, then they join its batch and commit with it in one transaction', async () => {
    other.hold();
    const before = walCommits(file);
    const first = store.append('share-a', [newEvent()], { expectedRevision: 'no_stream' });
    await sleep(20);
    const later = [
      store.append('share-b', [newEvent()], { expectedRevision: 'no_stream' }),
      store.append('share-a', [newEvent()], { expectedRevision: 0 }),
    ];
    setTimeout(() => other.release(), 20);

    const results = await Promise.all([first, ...later]);

    expect(results.map((result) => result.nextRevision)).toEqual([0, 0, 1]);
    expect(walCommits(file) - before).toBe(1);
    expect(eventsInFile()).toBe(3);
  });

  it('given an append refused as busy, when the lock is released and it is retried with the same events, then it is written once', async () => {
    const events = [newEvent(), newEvent()];
    other.hold();
    await expect(
      store.append('share-a', events, { expectedRevision: 'no_stream' }),
    ).rejects.toMatchObject({ code: 'SQLITE_BUSY' });

    other.release();
    const retried = await store.append('share-a', events, { expectedRevision: 'no_stream' });

    expect(retried.nextRevision).toBe(1);
    expect((await store.readStream('share-a')).map((e) => e.id)).toEqual(events.map((e) => e.id));
    expect(eventsInFile()).toBe(2);
  });

  it('given the lock held, when the log is read, then reads answer with what was committed', async () => {
    await store.append('share-a', [newEvent()], { expectedRevision: 'no_stream' });
    other.hold();

    const read = await store.readStream('share-a');

    expect(read).toHaveLength(1);
    expect(await store.headPosition()).toBe(1);
  });
});
