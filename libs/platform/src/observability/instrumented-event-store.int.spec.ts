import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SqliteEventStore, type EventStore } from '#hawser/eventstore';
import { eventsAppended } from '#hawser/observability';
import { instrumentedEventStore, lastAppendFailure } from './instrumented-event-store.js';
import { WriteLockHolder } from '../../../eventstore/src/test-support/write-lock-holder.js';

const appendedTo = async (category: string): Promise<number> =>
  (await eventsAppended.get()).values.find((value) => value.labels.category === category)?.value ??
  0;

describe('the instrumented event store (real SQLite log in memory)', () => {
  let store: SqliteEventStore;
  let instrumented: EventStore;
  beforeEach(() => {
    store = new SqliteEventStore({ file: ':memory:' });
    instrumented = instrumentedEventStore(store);
  });
  afterEach(() => store.close());

  it('given appends through it, then they are written and counted by stream category', async () => {
    const category = `cat${randomUUID().slice(0, 8)}`;
    const before = await appendedTo(category);

    await instrumented.append(`${category}-1`, [{ id: randomUUID(), type: 'A', data: {} }], {
      expectedRevision: 'no_stream',
    });
    await instrumented.append(
      `${category}-2`,
      [
        { id: randomUUID(), type: 'A', data: {} },
        { id: randomUUID(), type: 'B', data: {} },
      ],
      { expectedRevision: 'no_stream' },
    );

    expect((await appendedTo(category)) - before).toBe(3);
    expect((await store.readStream(`${category}-2`)).map((event) => event.type)).toEqual([
      'A',
      'B',
    ]);
  });

  it("hands out the store's other methods bound to it, the same function each time", async () => {
    await store.append('share-a', [{ id: randomUUID(), type: 'A', data: { n: 1 } }], {
      expectedRevision: 'no_stream',
    });
    const { readStream, headPosition } = instrumented;

    expect(instrumented.readStream).toBe(readStream);
    expect(instrumented.append).toBe(instrumented.append);
    expect((await readStream('share-a')).map((event) => event.data)).toEqual([{ n: 1 }]);
    expect(await headPosition()).toBe(1);
  });
});

describe('the instrumented event store when another connection holds the write lock', () => {
  let dir: string;
  let store: SqliteEventStore;
  let holder: WriteLockHolder;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-instrumented-'));
    const file = path.join(dir, 'events.sqlite');
    store = new SqliteEventStore({ file, busyTimeoutMs: 50 });
    holder = new WriteLockHolder(file);
  });
  afterEach(async () => {
    holder.close();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('given an append refused as busy, then it fails as busy but leaves no append failure: the store stays ready', async () => {
    const instrumented = instrumentedEventStore(store);
    holder.hold();

    const refused = instrumented.append('share-a', [{ id: randomUUID(), type: 'A', data: {} }], {
      expectedRevision: 'no_stream',
    });

    await expect(refused).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
    expect(lastAppendFailure(instrumented)).toBeUndefined();
  });
});
