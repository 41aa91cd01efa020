import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { createEventStore } from '../create-event-store.js';
import { eventStoreContract } from '../event-store.contract.js';
import { DuplicateEventIdError, type NewEvent, type RecordedEvent } from '../event-store.port.js';
import { SqliteEventStore } from './sqlite-event-store.js';

const newEvent = (type: string, data: unknown = {}): NewEvent => ({ id: randomUUID(), type, data });

describe('SQLite adapter', () => {
  let dir: string;
  let files = 0;
  const nextFile = () => path.join(dir, `events-${(files += 1)}.sqlite`);

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-'));
  });
  afterAll(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  describe('contract', () => {
    eventStoreContract(({ upcasters }) => new SqliteEventStore({ file: nextFile(), upcasters }));
  });

  describe('on one shared file', () => {
    let stores: SqliteEventStore[] = [];
    const open = (file: string, pollIntervalMs?: number) => {
      const store = new SqliteEventStore({ file, pollIntervalMs });
      stores.push(store);
      return store;
    };
    afterEach(async () => {
      await Promise.all(stores.map((store) => store.close()));
      stores = [];
    });

    it("two instances (as two processes would) see each other's appends live", async () => {
      const file = nextFile();
      const writer = open(file);
      const reader = open(file, 20);
      const received: RecordedEvent[] = [];
      const subscription = reader.subscribeToAll();
      const loop = (async () => {
        for await (const event of subscription) received.push(event);
      })();

      await writer.append('share-a', [newEvent('ShareRequested')], {
        expectedRevision: 'no_stream',
      });
      await reader.append('share-b', [newEvent('ShareRequested')], {
        expectedRevision: 'no_stream',
      });
      await writer.append('share-a', [newEvent('ShareScheduled')], { expectedRevision: 0 });
      const deadline = Date.now() + 5_000;
      while (received.length < 3 && Date.now() < deadline) await sleep(5);
      await sleep(100);
      await subscription.close();
      await loop;

      expect(received.map((e) => [e.streamId, e.type, e.position])).toEqual([
        ['share-a', 'ShareRequested', 1],
        ['share-b', 'ShareRequested', 2],
        ['share-a', 'ShareScheduled', 3],
      ]);
    });

    it('a writer in another instance makes a stale expected revision fail', async () => {
      const file = nextFile();
      const first = open(file);
      const second = open(file);
      await first.append('share-a', [newEvent('ShareRequested')], {
        expectedRevision: 'no_stream',
      });
      await second.append('share-a', [newEvent('ShareScheduled')], { expectedRevision: 0 });

      await expect(
        first.append('share-a', [newEvent('ShareScheduled')], { expectedRevision: 0 }),
      ).rejects.toMatchObject({ name: 'WrongExpectedRevisionError', actual: 1 });
    });

    it('an idle subscription holds no read transaction (a full WAL checkpoint succeeds)', async () => {
      const file = nextFile();
      const store = open(file);
      await store.append('share-a', [newEvent('ShareRequested')], {
        expectedRevision: 'no_stream',
      });
      const subscription = store.subscribeToAll();
      const loop = (async () => {
        for await (const _event of subscription) {
          // Reading the one stored event, then waiting for more.
        }
      })();
      await sleep(50);

      const other = new Database(file);
      const [checkpoint] = other.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
      other.close();
      await subscription.close();
      await loop;

      expect(checkpoint?.busy).toBe(0);
    });

    it('decodes a row once: read again, by a stream load or a page of the log, it is the same event; what another instance appends reads as itself', async () => {
      const file = nextFile();
      const writer = open(file);
      const reader = open(file);
      await writer.append('share-a', [newEvent('ShareRequested', { size: 1 })], {
        expectedRevision: 'no_stream',
      });
      const [first] = await reader.readStream('share-a');

      await writer.append('share-a', [newEvent('ShareExtended', { size: 2 })], {
        expectedRevision: 0,
      });
      const stream = await reader.readStream('share-a');
      const page = await reader.readAll();

      expect(stream[0]).toBe(first);
      expect(page[0]).toBe(first);
      expect(page[1]).toBe(stream[1]);
      expect(stream.map((e) => [e.type, e.data, e.revision, e.position])).toEqual([
        ['ShareRequested', { size: 1 }, 0, 1],
        ['ShareExtended', { size: 2 }, 1, 2],
      ]);
    });

    it('keeps the events when the file is opened again', async () => {
      const file = nextFile();
      const first = open(file);
      await first.append('share-a', [newEvent('ShareRequested', { size: 1 })], {
        expectedRevision: 'no_stream',
      });
      await first.close();

      const reopened = open(file);

      expect((await reopened.readStream('share-a')).map((e) => e.data)).toEqual([{ size: 1 }]);
      expect(await reopened.headPosition()).toBe(1);
    });
  });

  describe('event id clashes', () => {
    let store: SqliteEventStore;
    beforeEach(() => {
      store = new SqliteEventStore({ file: ':memory:' });
    });
    afterEach(() => store.close());

    it('names the stored ids when a batch at the current revision repeats one', async () => {
      const stored = newEvent('ShareRequested');
      await store.append('share-a', [stored], { expectedRevision: 'no_stream' });

      const clash = store.append('share-a', [newEvent('ShareScheduled'), stored], {
        expectedRevision: 0,
      });

      await expect(clash).rejects.toBeInstanceOf(DuplicateEventIdError);
      await expect(clash).rejects.toThrow(stored.id);
      expect(await store.readStream('share-a')).toHaveLength(1);
    });

    it('rejects a retry whose ids the stream holds at other than consecutive revisions', async () => {
      const [first, second] = [newEvent('ShareRequested'), newEvent('ShareScheduled')];
      await store.append('share-a', [first], { expectedRevision: 'no_stream' });
      await store.append('share-a', [newEvent('ShareUpdated')], { expectedRevision: 0 });
      await store.append('share-a', [second], { expectedRevision: 1 });

      await expect(
        store.append('share-a', [first, second], { expectedRevision: 'no_stream' }),
      ).rejects.toBeInstanceOf(DuplicateEventIdError);
      expect(await store.readStream('share-a')).toHaveLength(3);
    });

    it('lets another stream hold the same event id (ids are unique per stream)', async () => {
      const shared = newEvent('ShareRequested');
      await store.append('share-a', [shared], { expectedRevision: 'no_stream' });

      const result = await store.append('share-b', [shared], { expectedRevision: 'no_stream' });

      expect(result.nextRevision).toBe(0);
      expect((await store.readStream('share-b')).map((e) => e.id)).toEqual([shared.id]);
    });
  });

  describe('statements', () => {
    const store = new SqliteEventStore({ file: ':memory:' });
    afterAll(() => store.close());

    it('reads pages of many different sizes, more than it keeps statements for', async () => {
      const events = Array.from({ length: 300 }, (_, n) => newEvent('ShareUpdated', { n }));
      await store.append('share-a', events, { expectedRevision: 'no_stream' });

      const sizes = Array.from({ length: 300 }, (_, n) => n);
      const pages = await Promise.all(sizes.map((maxCount) => store.readAll({ maxCount })));
      const tails = await Promise.all(
        sizes.map((maxCount) => store.readStream('share-a', { fromRevision: 10, maxCount })),
      );
      const backwards = await store.readStream('share-a', { direction: 'backwards', maxCount: 3 });

      expect(pages.map((page) => page.length)).toEqual(sizes);
      expect(tails.map((tail) => tail.length)).toEqual(sizes.map((n) => Math.min(n, 290)));
      expect(tails[5]?.map((event) => event.revision)).toEqual([10, 11, 12, 13, 14]);
      expect(backwards.map((event) => event.revision)).toEqual([299, 298, 297]);
      expect(await store.readAll({ maxCount: -1 })).toHaveLength(300);
    });
  });

  describe('an insert SQLite refuses', () => {
    let file: string;
    let store: SqliteEventStore;
    beforeEach(() => {
      file = nextFile();
      store = new SqliteEventStore({ file });
      const other = new Database(file);
      other.exec(`CREATE TRIGGER refuse BEFORE INSERT ON events WHEN NEW.type = 'Refused'
        BEGIN SELECT RAISE(ABORT, 'refused by a trigger'); END`);
      other.close();
    });
    afterEach(() => store.close());

    it('fails only its own append, of one event or of several, and writes none of it', async () => {
      const [single, several, other] = await Promise.allSettled([
        store.append('share-a', [newEvent('Refused')], { expectedRevision: 'no_stream' }),
        store.append('share-b', [newEvent('Accepted'), newEvent('Refused')], {
          expectedRevision: 'no_stream',
        }),
        store.append('share-c', [newEvent('Accepted')], { expectedRevision: 'no_stream' }),
      ]);

      expect(single).toMatchObject({
        status: 'rejected',
        reason: { message: 'refused by a trigger' },
      });
      expect(several).toMatchObject({
        status: 'rejected',
        reason: { message: 'refused by a trigger' },
      });
      expect(other).toMatchObject({ status: 'fulfilled', value: { nextRevision: 0, position: 1 } });
      expect(await store.readStream('share-a')).toEqual([]);
      expect(await store.readStream('share-b')).toEqual([]);
      expect((await store.readAll()).map((event) => event.streamId)).toEqual(['share-c']);
    });
  });

  describe('createEventStore', () => {
    it('opens events.sqlite in the data directory, creating the directory', async () => {
      const dataDir = path.join(dir, 'nested', 'data');

      const store = await createEventStore({ dataDir });
      await store.append('share-a', [newEvent('ShareRequested')], {
        expectedRevision: 'no_stream',
      });
      await store.close();

      expect(store).toBeInstanceOf(SqliteEventStore);
      expect(fs.existsSync(path.join(dataDir, 'events.sqlite'))).toBe(true);
    });
  });
});

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
