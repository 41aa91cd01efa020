import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DuplicateEventIdError,
  WrongExpectedRevisionError,
  type NewEvent,
} from '../event-store.port.js';
import { killWhenFrozen } from '../test-support/kill-when-frozen.js';
import { walCommits } from '../test-support/wal-commits.js';
import { SqliteEventStore } from './sqlite-event-store.js';

const newEvent = (type = 'Appended', data: unknown = {}): NewEvent => ({
  id: randomUUID(),
  type,
  data,
});
const CHILD = fileURLToPath(new URL('../test-support/crash-mid-batch.child.mjs', import.meta.url));

describe('SQLite group commit', () => {
  let dir: string;
  let file: string;
  let store: SqliteEventStore;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-group-commit-'));
    file = path.join(dir, 'events.sqlite');
    store = new SqliteEventStore({ file });
  });
  afterEach(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('commits appends to different streams submitted together in one transaction', async () => {
    const before = walCommits(file);

    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        store.append(`share-${i}`, [newEvent(), newEvent()], { expectedRevision: 'no_stream' }),
      ),
    );

    expect(walCommits(file) - before).toBe(1);
    expect(results.map((r) => r.nextRevision)).toEqual(Array(20).fill(1));
    expect(new Set(results.map((r) => r.position)).size).toBe(20);
    expect(await store.headPosition()).toBe(40);
  });

  it('commits appends submitted however many microtasks apart, until the microtasks run out, in one transaction', async () => {
    const before = walCommits(file);
    const afterAwaits = async (awaits: number, streamId: string) => {
      for (let i = 0; i < awaits; i++) await Promise.resolve();
      return store.append(streamId, [newEvent()], { expectedRevision: 'no_stream' });
    };

    const results = await Promise.all([afterAwaits(0, 'share-a'), afterAwaits(50, 'share-b')]);

    expect(walCommits(file) - before).toBe(1);
    expect(results.map((r) => r.nextRevision)).toEqual([0, 0]);
  });

  it('commits appends awaited one after another in one transaction each', async () => {
    const before = walCommits(file);

    for (let i = 0; i < 5; i++) {
      await store.append(`share-${i}`, [newEvent()], { expectedRevision: 'no_stream' });
    }

    expect(walCommits(file) - before).toBe(5);
  });

  it('commits the pending batch when a stream of it is read, so a load sees what was appended', async () => {
    const before = walCommits(file);
    const appended = [
      store.append('share-a', [newEvent()], { expectedRevision: 'no_stream' }),
      store.append('share-b', [newEvent()], { expectedRevision: 'no_stream' }),
    ];

    const read = await store.readStream('share-a');

    expect(read).toHaveLength(1);
    expect(walCommits(file) - before).toBe(1);
    await expect(Promise.all(appended)).resolves.toHaveLength(2);
  });

  it('fails only the append whose expected revision is stale; the others of its batch are written', async () => {
    await store.append('share-b', [newEvent()], { expectedRevision: 'no_stream' });

    const [a, b, c] = await Promise.allSettled([
      store.append('share-a', [newEvent()], { expectedRevision: 'no_stream' }),
      store.append('share-b', [newEvent(), newEvent()], { expectedRevision: 5 }),
      store.append('share-c', [newEvent()], { expectedRevision: 'no_stream' }),
    ]);

    expect(a).toMatchObject({ status: 'fulfilled', value: { nextRevision: 0 } });
    expect(b).toMatchObject({ status: 'rejected', reason: { actual: 0 } });
    expect((b as PromiseRejectedResult).reason).toBeInstanceOf(WrongExpectedRevisionError);
    expect(c).toMatchObject({ status: 'fulfilled', value: { nextRevision: 0 } });
    expect(await store.readStream('share-b')).toHaveLength(1);
    expect(await store.readStream('share-c')).toHaveLength(1);
  });

  it('checks two appends to one stream of a batch in order: the second sees the first', async () => {
    const [first, second] = await Promise.allSettled([
      store.append('share-a', [newEvent()], { expectedRevision: 'no_stream' }),
      store.append('share-a', [newEvent()], { expectedRevision: 'no_stream' }),
    ]);

    expect(first).toMatchObject({ status: 'fulfilled', value: { nextRevision: 0 } });
    expect(second).toMatchObject({ status: 'rejected', reason: { actual: 0 } });
    expect(await store.readStream('share-a')).toHaveLength(1);
  });

  it('takes back all events of an append that fails halfway, and only its own', async () => {
    const repeated = newEvent();

    const [clash, other] = await Promise.allSettled([
      store.append('share-a', [newEvent(), repeated, repeated], { expectedRevision: 'no_stream' }),
      store.append('share-b', [newEvent()], { expectedRevision: 'no_stream' }),
    ]);

    expect(clash.status).toBe('rejected');
    expect((clash as PromiseRejectedResult).reason).toBeInstanceOf(DuplicateEventIdError);
    expect(other.status).toBe('fulfilled');
    expect(await store.readStream('share-a')).toEqual([]);
    expect(await store.readStream('share-b')).toHaveLength(1);
  });

  it('answers a retry with the original result, in a later batch and in the same one', async () => {
    const original = [newEvent(), newEvent()];
    const first = await store.append('share-a', original, { expectedRevision: 'no_stream' });

    const [laterRetry, fresh] = await Promise.all([
      store.append('share-a', original, { expectedRevision: 'no_stream' }),
      store.append('share-b', [newEvent()], { expectedRevision: 'no_stream' }),
    ]);
    const again = [newEvent()];
    const [once, sameBatchRetry] = await Promise.all([
      store.append('share-c', again, { expectedRevision: 'no_stream' }),
      store.append('share-c', again, { expectedRevision: 'no_stream' }),
    ]);

    expect(laterRetry).toEqual(first);
    expect(fresh.nextRevision).toBe(0);
    expect(sameBatchRetry).toEqual(once);
    expect(await store.readStream('share-a')).toHaveLength(2);
    expect(await store.readStream('share-c')).toHaveLength(1);
  });

  it('keeps each append all or nothing when the process is killed inside a batch', async () => {
    await store.close();
    const [committed, appends, events] = [3, 5, 3];

    const signal = await killWhenFrozen(CHILD, [file, ...[committed, appends, events].map(String)]);
    store = new SqliteEventStore({ file });

    const lengths = async (prefix: string, count: number) =>
      Promise.all(
        Array.from(
          { length: count },
          async (_, a) => (await store.readStream(`${prefix}-${a}`)).length,
        ),
      );
    expect(signal).toBe('SIGKILL');
    for (let b = 0; b < committed; b++) {
      expect(await lengths(`committed${b}`, appends)).toEqual(Array(appends).fill(events));
    }
    // The batch was killed after three appends and part of a fourth were inserted: none stayed.
    expect(await lengths('frozen', appends)).toEqual(Array(appends).fill(0));
    expect(await store.headPosition()).toBe(committed * appends * events);
  });
});
