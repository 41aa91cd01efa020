import { jest } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SqliteEventStore } from '#hawser/eventstore';
import { ReadModelChanges } from '../changes/read-model-changes.js';
import type { DocumentWrite } from '../document-store.port.js';
import { SqliteDocumentStore } from '../sqlite/sqlite-document-store.js';
import {
  countingProjection,
  newEvents as events,
  type StreamCount,
} from '../test-support/counting-projection.js';
import type { Projection } from './projection.js';
import { PROJECTION_VERSIONS, ProjectionRunner } from './projection-runner.js';
import { WriteLockHolder } from '../../../eventstore/src/test-support/write-lock-holder.js';

describe('ProjectionRunner', () => {
  let dir: string;
  let eventStore: SqliteEventStore;
  let documents: SqliteDocumentStore;
  let runners: ProjectionRunner[];

  const runnerFor = (projections: Projection[], batchSize = 1_000) => {
    const runner = new ProjectionRunner(eventStore, documents, projections, { batchSize });
    runners.push(runner);
    return runner;
  };
  /** Appends `perStream` events to each of `streams` thing- streams, in appends of `perStream`. */
  const givenThings = async (streams: number, perStream: number) => {
    for (let s = 0; s < streams; s += 1) {
      await eventStore.append(`thing-${s}`, events(perStream), { expectedRevision: 'any' });
    }
  };
  /** The counts as the log says they should be. */
  const expectedCounts = async (): Promise<Map<string, number>> => {
    const counts = new Map<string, number>();
    for (const event of await eventStore.readAll({ filter: { streamPrefixes: ['thing-'] } })) {
      counts.set(event.streamId, (counts.get(event.streamId) ?? 0) + 1);
    }
    return counts;
  };
  const storedCounts = async (collection = 'counts'): Promise<Map<string, number>> =>
    new Map(
      (await documents.find<StreamCount>(collection)).map((doc) => [doc.id, doc.count] as const),
    );
  const caughtUp = async (runner: ProjectionRunner) =>
    expect(await runner.waitForPosition(await eventStore.headPosition(), 10_000)).toBe(true);
  /** A runner of the counts that caught up with the log and stopped. */
  const givenCountsCaughtUpAndStopped = async () => {
    const runner = runnerFor([countingProjection('counts', 'counts')]);
    await runner.start();
    await caughtUp(runner);
    await runner.stop();
  };

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-'));
    eventStore = new SqliteEventStore({ file: path.join(dir, 'events.sqlite') });
    documents = new SqliteDocumentStore({ file: path.join(dir, 'read-models.sqlite') });
    runners = [];
  });
  afterEach(async () => {
    for (const runner of runners) await runner.stop();
    await documents.close();
    await eventStore.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('given a log, when started, then it catches up in large batches committed with the checkpoint', async () => {
    await givenThings(50, 100);
    await eventStore.append('other-1', events(500, 'Unrelated'), { expectedRevision: 'any' });
    const commits = jest.spyOn(documents, 'commitAll');
    const runner = runnerFor([countingProjection('counts', 'counts')]);

    await runner.start();
    await caughtUp(runner);

    expect(await storedCounts()).toEqual(await expectedCounts());
    expect(commits.mock.calls.length).toBeLessThanOrEqual(6);
    // The checkpoint stores the last batch; the unrelated tail is examined but not worth a write.
    const [lastThing] = await eventStore.readAll({
      direction: 'backwards',
      maxCount: 1,
      filter: { streamPrefixes: ['thing-'] },
    });
    expect(await documents.readCheckpoint('counts')).toBe(lastThing?.position);
    expect(runner.status()[0]?.position).toBe(await eventStore.headPosition());
  });

  it('given a first catch-up into empty collections, then it asks the store for no document', async () => {
    await givenThings(20, 10);
    const gets = jest.spyOn(documents, 'get');
    const runner = runnerFor([countingProjection('counts', 'counts')], 15);

    await runner.start();
    await caughtUp(runner);

    expect(await storedCounts()).toEqual(await expectedCounts());
    // Batches of 15 split some streams: their later events read what an earlier batch
    // committed, from what the worker remembers of its commits.
    expect(gets).not.toHaveBeenCalled();
  });

  it('given a first catch-up that reached the head, when new streams follow, then their documents are looked up in the store (the ids written are no longer kept)', async () => {
    await givenThings(20, 10);
    const runner = runnerFor([countingProjection('counts', 'counts')]);
    await runner.start();
    await caughtUp(runner);
    const gets = jest.spyOn(documents, 'get');

    for (const stream of ['thing-new-1', 'thing-new-2', 'thing-new-3']) {
      await eventStore.append(stream, events(1), { expectedRevision: 'any' });
    }
    await caughtUp(runner);

    expect(gets.mock.calls.map(([, id]) => id)).toEqual(
      expect.arrayContaining(['thing-new-1', 'thing-new-2', 'thing-new-3']),
    );
    expect(await storedCounts()).toEqual(await expectedCounts());
  });

  it('given a first catch-up, then the declared indexes are built as it reaches the head, and at start afterwards', async () => {
    await givenThings(30, 10);
    const commits = jest.spyOn(documents, 'commitAll');
    const indexes = jest.spyOn(documents, 'ensureIndex');
    const first = runnerFor([countingProjection('counts', 'counts')], 50);

    await first.start();
    expect(indexes).not.toHaveBeenCalled();
    await caughtUp(first);

    // Built on reading the last page, before its commit: once, over the loaded collection.
    expect(indexes).toHaveBeenCalledWith('counts', ['lastType', 'count']);
    const commitOrder = commits.mock.invocationCallOrder;
    expect(commitOrder).toHaveLength(6);
    expect(indexes.mock.invocationCallOrder[0]).toBeGreaterThan(commitOrder[4] as number);
    expect(indexes.mock.invocationCallOrder[0]).toBeLessThan(commitOrder[5] as number);
    expect(await storedCounts()).toEqual(await expectedCounts());
    await first.stop();
    indexes.mockClear();

    await runnerFor([countingProjection('counts', 'counts')]).start();
    expect(indexes).toHaveBeenCalledWith('counts', ['lastType', 'count']);
  });

  it('given an index a projection no longer declares, when a runner starts, then the store drops it and keeps the declared one', async () => {
    await givenThings(3, 2);
    await givenCountsCaughtUpAndStopped();
    await documents.ensureIndex('counts', ['count']);
    const ensured = jest.spyOn(documents, 'ensureIndex');
    const dropped = jest.spyOn(documents, 'dropIndex');

    await runnerFor([
      { ...countingProjection('counts', 'counts'), retiredIndexes: { counts: [['count']] } },
    ]).start();

    expect(dropped).toHaveBeenCalledWith('counts', ['count']);
    expect(ensured).toHaveBeenCalledWith('counts', ['lastType', 'count']);
    expect(documents.queryPlan('counts', { count: 2 }).join('\n')).not.toMatch(/by:count,id/);
    expect(documents.queryPlan('counts', { lastType: 'x' }).join('\n')).toMatch(
      /by:lastType,count,id/,
    );
  });

  it('given documents but no checkpoint, then the catch-up reads them rather than assume they are absent', async () => {
    await documents.write([
      { kind: 'put', collection: 'counts', document: { id: 'thing-0', count: 100 } },
    ]);
    await givenThings(2, 3);
    const runner = runnerFor([countingProjection('counts', 'counts')]);

    await runner.start();
    await caughtUp(runner);

    expect(await storedCounts()).toEqual(
      new Map([
        ['thing-0', 103],
        ['thing-1', 3],
      ]),
    );
  });

  it('given the read-model file locked by another connection past the busy time-out, when events arrive, then the runner retries and, once the lock is free, applies each once', async () => {
    await documents.close();
    const file = path.join(dir, 'read-models.sqlite');
    documents = new SqliteDocumentStore({ file, busyTimeoutMs: 50 });
    const holder = new WriteLockHolder(file);
    const runner = runnerFor([countingProjection('counts', 'counts')]);
    await runner.start();
    holder.hold();

    await givenThings(3, 4);
    const whileLocked = await runner.waitForPosition(await eventStore.headPosition(), 300);
    holder.close();

    expect(whileLocked).toBe(false);
    await caughtUp(runner);
    expect(await storedCounts()).toEqual(await expectedCounts());
  });

  it('given a stopped runner, when a new one starts, then it resumes from the checkpoint without applying anything twice', async () => {
    await givenThings(10, 30);
    await givenCountsCaughtUpAndStopped();
    await givenThings(5, 4);

    const projection = countingProjection('counts', 'counts');
    const second = runnerFor([projection]);
    await second.start();
    await caughtUp(second);

    expect(projection.handled).toBe(20);
    expect(await storedCounts()).toEqual(await expectedCounts());
  });

  it('given a live runner, when an event is appended, then waitForPosition sees it handled without waiting for a poll', async () => {
    // Polls a minute apart: handling within the 2 s wait comes from the append's wake-up.
    const runner = new ProjectionRunner(
      eventStore,
      documents,
      [countingProjection('counts', 'counts')],
      {
        pollIntervalMs: 60_000,
      },
    );
    runners.push(runner);
    await runner.start();
    await caughtUp(runner);

    const { position } = await eventStore.append('thing-live', events(1), {
      expectedRevision: 'no_stream',
    });
    const reached = await runner.waitForPosition(position, 2_000);

    expect(reached).toBe(true);
    expect(await documents.get<StreamCount>('counts', 'thing-live')).toMatchObject({ count: 1 });
  });

  it('given a listener on the change feed, when an event is projected, then it hears the committed writes of its collection only', async () => {
    const changes = new ReadModelChanges();
    const heard: DocumentWrite[] = [];
    const stop = changes.listen('counts', (writes) => heard.push(...writes));
    const runner = new ProjectionRunner(
      eventStore,
      documents,
      [countingProjection('counts', 'counts'), countingProjection('other', 'other')],
      { changes },
    );
    runners.push(runner);
    await runner.start();
    const { position } = await eventStore.append('thing-fed', events(1), {
      expectedRevision: 'no_stream',
    });
    expect(await runner.waitForPosition(position, 2_000)).toBe(true);
    expect(heard).toEqual([
      {
        kind: 'put',
        collection: 'counts',
        document: { id: 'thing-fed', count: 1, lastType: 'ThingHappened' },
      },
    ]);
    // What is heard has been committed: a reader told of it finds it in the store.
    expect(await documents.get('counts', 'thing-fed')).toMatchObject({ count: 1 });
    stop();
    await eventStore.append('thing-fed', events(1), { expectedRevision: 'any' });
    await caughtUp(runner);
    expect(heard).toHaveLength(1);
  });

  it('given events its filter skips, when waiting for their position, then it resolves: the log was examined', async () => {
    const projection = countingProjection('counts', 'counts');
    const runner = runnerFor([projection]);
    await runner.start();
    await givenThings(1, 1);
    await caughtUp(runner);

    const { position } = await eventStore.append('other-1', events(3, 'Unrelated'), {
      expectedRevision: 'any',
    });

    expect(await runner.waitForPosition(position, 2_000)).toBe(true);
    expect(projection.handled).toBe(1);
    expect(await runner.waitForPosition(position + 1_000, 50)).toBe(false);
  });

  it('given a projection that throws, then its batch is retried and the error is reported meanwhile', async () => {
    let failuresLeft = 2;
    const flaky: Projection = {
      ...countingProjection('flaky', 'flaky'),
      handle(event, ctx) {
        if (failuresLeft > 0) {
          failuresLeft -= 1;
          throw new Error('not yet');
        }
        ctx.put('flaky', { id: event.streamId });
      },
    };
    const runner = runnerFor([flaky]);
    await givenThings(1, 1);
    await runner.start();

    await caughtUp(runner);

    expect(await documents.get('flaky', 'thing-0')).toEqual({ id: 'thing-0' });
    expect(runner.status()).toEqual([
      { name: 'flaky', position: await eventStore.headPosition(), rebuilding: false },
    ]);
  });

  it('given two runners of the same projection on one store, then the checkpoint compare-and-set keeps every event applied once', async () => {
    const first = runnerFor([countingProjection('counts', 'counts')], 7);
    const second = runnerFor([countingProjection('counts', 'counts')], 5);
    await first.start();
    await second.start();

    for (let i = 0; i < 40; i += 1) {
      await eventStore.append(`thing-${i % 3}`, events(3), { expectedRevision: 'any' });
    }
    await caughtUp(first);
    await caughtUp(second);

    expect(await storedCounts()).toEqual(await expectedCounts());
  });

  describe('rebuild', () => {
    it('given live appends during a rebuild, then the rebuilt collection equals a projection that was never rebuilt', async () => {
      await givenThings(30, 100);
      const runner = runnerFor(
        [countingProjection('counts', 'counts'), countingProjection('control', 'control')],
        500,
      );
      await runner.start();
      await caughtUp(runner);
      // Damage the live read model: a rebuild must build from the log, not copy it.
      await documents.write([
        {
          kind: 'put',
          collection: 'counts',
          document: { id: 'thing-0', count: -1, lastType: 'x' },
        },
      ]);

      let appending = true;
      const appends = (async () => {
        for (let i = 0; appending || i < 20; i += 1) {
          await eventStore.append(`thing-${i % 40}`, events(2), { expectedRevision: 'any' });
          await new Promise((resolve) => setTimeout(resolve, 1));
        }
      })();
      await runner.rebuild('counts');
      appending = false;
      await appends;
      await caughtUp(runner);

      expect(await storedCounts('counts')).toEqual(await storedCounts('control'));
      expect(await storedCounts('counts')).toEqual(await expectedCounts());
      expect(runner.status().every((status) => !status.rebuilding)).toBe(true);
    });

    it('while a rebuild is under way, reads answer from the live generation, and after the swap from the new one', async () => {
      await givenThings(4, 5);
      let hold = Promise.resolve();
      let release = () => {};
      const projection = countingProjection('counts', 'counts');
      const held: Projection = {
        ...projection,
        async handle(event, ctx) {
          await hold;
          await projection.handle(event, ctx);
        },
      };
      const runner = runnerFor([held]);
      await runner.start();
      await caughtUp(runner);
      const before = await storedCounts();
      hold = new Promise((resolve) => (release = resolve));

      const rebuilding = runner.rebuild('counts');
      await new Promise((resolve) => setTimeout(resolve, 20));

      expect(runner.status()[0]?.rebuilding).toBe(true);
      expect(await storedCounts()).toEqual(before);
      expect(await documents.count('counts')).toBe(4);
      release();
      await rebuilding;
      expect(await storedCounts()).toEqual(before);
      await eventStore.append('thing-0', events(1), { expectedRevision: 'any' });
      await caughtUp(runner);
      expect(await documents.get<StreamCount>('counts', 'thing-0')).toMatchObject({ count: 6 });
    });

    it('reports how far a rebuild has read against the head of the log, rising batch by batch to the head', async () => {
      await givenThings(10, 100);
      const projection = countingProjection('counts', 'counts');
      let rebuildingNow = false;
      const seen: { position: number; head: number; percent: number }[] = [];
      const watched: Projection = {
        ...projection,
        async handle(event, ctx) {
          const progress = runner.status()[0]?.rebuild;
          if (rebuildingNow && progress) seen.push(progress);
          await projection.handle(event, ctx);
        },
      };
      const runner = runnerFor([watched], 100);
      await runner.start();
      await caughtUp(runner);
      const head = await eventStore.headPosition();

      rebuildingNow = true;
      await runner.rebuild('counts');
      rebuildingNow = false;

      const percents = [...new Set(seen.map((p) => p.percent))];
      expect(percents[0]).toBe(0);
      expect(percents).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90]);
      expect(seen.every((p) => p.head === head)).toBe(true);
      expect(runner.status()[0]).toEqual({ name: 'counts', position: head, rebuilding: false });
    });

    it('given a rebuild that fails, then its generation is dropped and the live one answers as before', async () => {
      await givenThings(4, 5);
      const projection = countingProjection('counts', 'counts');
      let failing = false;
      const flaky: Projection = {
        ...projection,
        async handle(event, ctx) {
          if (failing) throw new Error('projection failed during the rebuild');
          await projection.handle(event, ctx);
        },
      };
      const runner = runnerFor([flaky]);
      await runner.start();
      await caughtUp(runner);
      const before = await storedCounts();
      const prepare = jest.spyOn(documents, 'prepareGeneration');

      failing = true;
      await expect(runner.rebuild('counts')).rejects.toThrow(/failed during the rebuild/);
      failing = false;

      const generation = await prepare.mock.results[0]?.value;
      expect(typeof generation).toBe('string');
      await expect(documents.swap(['counts'], generation as string)).rejects.toThrow(
        /was not prepared/,
      );
      expect(await storedCounts()).toEqual(before);
    });

    it('given a generation a crashed rebuild left prepared, when a runner starts, then it is dropped', async () => {
      await givenThings(2, 3);
      const left = await documents.prepareGeneration(['counts']);
      await documents.write([
        { kind: 'put', collection: `counts@${left}`, document: { id: 'half', count: 1 } },
      ]);
      const runner = runnerFor([countingProjection('counts', 'counts')]);

      expect(await runner.start()).toEqual({ discardedGenerations: [left] });
      await caughtUp(runner);

      expect(await documents.count(`counts@${left}`)).toBe(0);
      await expect(documents.swap(['counts'], left)).rejects.toThrow(/was not prepared/);
      expect(await storedCounts()).toEqual(await expectedCounts());
    });

    it('given a read model written by an earlier version of its projection, when a runner of the new version starts, then it is rebuilt once in the new shape', async () => {
      await givenThings(3, 2);
      await givenCountsCaughtUpAndStopped();
      const counts = countingProjection('counts', 'counts');
      // Version 2 also keeps how many events a stream had at its first look, say.
      const reshaped: Projection = {
        ...counts,
        version: 2,
        async handle(event, ctx) {
          await counts.handle(event, ctx);
          const stored = await ctx.get<StreamCount>('counts', event.streamId);
          ctx.put('counts', { ...(stored as StreamCount), shape: 2 });
        },
      };
      const runner = runnerFor([reshaped]);
      await runner.start();
      const before = await documents.find('counts', { shape: 2 });

      expect(await runner.rebuildOutdated()).toEqual(['counts']);

      expect(before).toEqual([]);
      expect(await documents.count('counts', { shape: 2 })).toBe(3);
      expect(await storedCounts()).toEqual(await expectedCounts());
      expect(await documents.get(PROJECTION_VERSIONS, 'counts')).toEqual({
        id: 'counts',
        version: 2,
      });
      await runner.stop();
      const again = runnerFor([reshaped]);
      await again.start();
      const rebuild = jest.spyOn(again, 'rebuild');
      expect(await again.rebuildOutdated()).toEqual([]);
      expect(rebuild).not.toHaveBeenCalled();
    });

    it('given a rebuild of an outdated read model under way, when the runner stops, then it ends quietly and the next start rebuilds it', async () => {
      await givenThings(3, 2);
      await givenCountsCaughtUpAndStopped();
      const counts = countingProjection('counts', 'counts');
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      let hold = false;
      let reached = () => {};
      const holding = new Promise<void>((resolve) => (reached = resolve));
      const reshaped: Projection = {
        ...counts,
        version: 2,
        async handle(event, ctx) {
          if (hold) {
            reached();
            await held;
          }
          await counts.handle(event, ctx);
        },
      };
      const runner = runnerFor([reshaped]);
      await runner.start();
      hold = true;

      const outdated = runner.rebuildOutdated();
      await holding;
      const stopped = runner.stop();
      release();
      await stopped;

      await expect(outdated).resolves.toEqual([]);
      expect(await documents.get(PROJECTION_VERSIONS, 'counts')).toEqual({
        id: 'counts',
        version: 1,
      });
      hold = false;
      const next = runnerFor([reshaped]);
      await next.start();
      expect(await next.rebuildOutdated()).toEqual(['counts']);
      expect(await storedCounts()).toEqual(await expectedCounts());
      await next.stop();
    });

    it('given an empty store, when a projection of a later version first catches up, then its version is recorded and nothing is rebuilt', async () => {
      await givenThings(2, 2);
      const runner = runnerFor([{ ...countingProjection('counts', 'counts'), version: 3 }]);
      const rebuild = jest.spyOn(runner, 'rebuild');

      await runner.start();
      await caughtUp(runner);

      expect(await runner.rebuildOutdated()).toEqual([]);
      expect(rebuild).not.toHaveBeenCalled();
      expect(await documents.get(PROJECTION_VERSIONS, 'counts')).toEqual({
        id: 'counts',
        version: 3,
      });
    });

    it('refuses an unknown projection and a second rebuild of the same one', async () => {
      const runner = runnerFor([countingProjection('counts', 'counts')]);
      await runner.start();

      await expect(runner.rebuild('nope')).rejects.toThrow(/no projection named nope/);
      const first = runner.rebuild('counts');
      await expect(runner.rebuild('counts')).rejects.toThrow(/already being rebuilt/);
      await first;
    });
  });
});
