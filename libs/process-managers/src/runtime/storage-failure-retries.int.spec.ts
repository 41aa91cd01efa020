import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { SqliteEventStore, type NewEvent } from '#hawser/eventstore';
import { SqliteDocumentStore } from '#hawser/read-models';
import type { ParkedEvent } from './parked-event.js';
import type { ProcessManager } from './process-manager.js';
import { ProcessManagerRunner } from './process-manager-runner.js';
import { WriteLockHolder } from '../../../eventstore/src/test-support/write-lock-holder.js';

const event = (type: string): NewEvent => ({ id: randomUUID(), type, data: {} });

/**
 * A process manager that writes each `Ship` event into its own SQLite database, whose size
 * `PRAGMA max_page_count` caps: at the cap SQLite answers SQLITE_FULL as on a full disk. A
 * `Poison` event fails with an error of its own.
 */
const outbox = (file: string) => {
  // A short busy time-out: a lock held by another connection fails a write at once.
  const db = new Database(file, { timeout: 20 });
  db.exec('CREATE TABLE shipped (event_id TEXT PRIMARY KEY, payload BLOB)');
  const insert = db.prepare('INSERT OR IGNORE INTO shipped VALUES (?, ?)');
  const manager: ProcessManager = {
    name: 'outbox',
    filter: { streamPrefixes: ['order-'] },
    async handle(recorded) {
      if (recorded.type === 'Poison') throw new Error('not a valid order');
      // Larger than a page, so every row needs new pages.
      insert.run(recorded.id, Buffer.alloc(16 * 1024));
    },
  };
  return {
    manager,
    fill: () =>
      db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`),
    free: () => db.pragma('max_page_count = 1073741823'),
    shipped: () => db.prepare('SELECT COUNT(*) FROM shipped').pluck().get() as number,
    close: () => db.close(),
  };
};

describe('events parked by a storage failure', () => {
  let dir: string;
  let events: SqliteEventStore;
  let documents: SqliteDocumentStore;
  let box: ReturnType<typeof outbox>;
  let runner: ProcessManagerRunner;

  const parkedWhen = async (check: (parked: ParkedEvent[]) => boolean) => {
    for (let tries = 0; tries < 1_000; tries += 1) {
      const parked = await runner.listParked();
      if (check(parked)) return parked;
      await delay(10);
    }
    throw new Error(`parked events never matched: ${JSON.stringify(await runner.listParked())}`);
  };

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-storage-retries-'));
    events = new SqliteEventStore({ file: path.join(dir, 'events.sqlite') });
    documents = new SqliteDocumentStore({ file: path.join(dir, 'read-models.sqlite') });
    box = outbox(path.join(dir, 'outbox.sqlite'));
    runner = new ProcessManagerRunner(events, documents, [box.manager], {
      retry: { attempts: 2, baseDelayMs: 5, maxDelayMs: 10 },
      storageRetryIntervalMs: 20,
    });
  });
  afterEach(async () => {
    await runner.stop();
    box.close();
    await documents.close();
    await events.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('given a store that is full, then its event is parked as a storage failure and goes through by itself once space is back, while another failure waits for an admin', async () => {
    box.fill();
    await events.append('order-1', [event('Ship'), event('Poison')], {
      expectedRevision: 'no_stream',
    });

    await runner.start();
    const parked = await parkedWhen((list) => list.length === 2);

    expect(parked).toEqual([
      expect.objectContaining({
        eventType: 'Ship',
        storageFailure: 'full',
        error: 'database or disk is full',
      }),
      expect.not.objectContaining({ storageFailure: expect.anything() }),
    ]);
    expect(box.shipped()).toBe(0);

    box.free();

    const left = await parkedWhen((list) => list.length === 1);
    expect(box.shipped()).toBe(1);
    expect(left).toEqual([
      expect.objectContaining({ eventType: 'Poison', error: 'not a valid order', attempts: 2 }),
    ]);
  });

  it('given a store still full, then the retry keeps the event parked with one more attempt', async () => {
    box.fill();
    await events.append('order-1', [event('Ship')], { expectedRevision: 'no_stream' });
    await runner.start();

    const parked = await parkedWhen((list) => (list[0]?.attempts ?? 0) >= 4);

    expect(parked).toEqual([
      expect.objectContaining({ eventType: 'Ship', storageFailure: 'full' }),
    ]);
    expect(box.shipped()).toBe(0);
  });

  it('given its store locked by another connection past the busy time-out, then its event is parked as busy and goes through by itself once the lock is free', async () => {
    const locker = new WriteLockHolder(path.join(dir, 'outbox.sqlite'));
    locker.hold();
    try {
      await events.append('order-1', [event('Ship')], { expectedRevision: 'no_stream' });
      await runner.start();

      const parked = await parkedWhen((list) => list.length === 1);

      expect(parked).toEqual([
        expect.objectContaining({ eventType: 'Ship', storageFailure: 'busy' }),
      ]);
      expect(box.shipped()).toBe(0);
    } finally {
      locker.close();
    }

    await parkedWhen((list) => list.length === 0);
    expect(box.shipped()).toBe(1);
  });
});
