import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { jest } from '@jest/globals';
import { SqliteEventStore } from '#hawser/eventstore';
import { killWhenFrozen } from '../../../eventstore/src/test-support/kill-when-frozen.js';
import { walCommits } from '../../../eventstore/src/test-support/wal-commits.js';
import { SqliteDocumentStore } from '../sqlite/sqlite-document-store.js';
import {
  countingProjection,
  newEvents,
  type StreamCount,
} from '../test-support/counting-projection.js';
import type { Projection } from './projection.js';
import { ProjectionRunner } from './projection-runner.js';

const CHILD = fileURLToPath(new URL('../test-support/crash-mid-round.child.mjs', import.meta.url));

describe('Live projections commit the batches they handle together in one transaction', () => {
  let dir: string;
  let documentsFile: string;
  let eventStore: SqliteEventStore;
  let documents: SqliteDocumentStore;
  let runner: ProjectionRunner | undefined;

  const append = (stream: string, count = 1, type?: string) =>
    eventStore.append(stream, newEvents(count, type), { expectedRevision: 'any' });
  const counts = async (collection: string) =>
    new Map((await documents.find<StreamCount>(collection)).map((d) => [d.id, d.count] as const));
  /** Per stream, how many `thing-` events the log holds up to `position`. */
  const countsUpTo = async (position: number) => {
    const expected = new Map<string, number>();
    for (const event of await eventStore.readAll({ filter: { streamPrefixes: ['thing-'] } })) {
      if (event.position > position) break;
      expected.set(event.streamId, (expected.get(event.streamId) ?? 0) + 1);
    }
    return expected;
  };
  const start = async (projections: Projection[]) => {
    runner = new ProjectionRunner(eventStore, documents, projections);
    await runner.start();
    return runner;
  };
  const caughtUp = async (running: ProjectionRunner) =>
    expect(await running.waitForPosition(await eventStore.headPosition(), 10_000)).toBe(true);

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-commit-round-'));
    documentsFile = path.join(dir, 'read-models.sqlite');
    eventStore = new SqliteEventStore({ file: path.join(dir, 'events.sqlite') });
    documents = new SqliteDocumentStore({ file: documentsFile });
  });
  afterEach(async () => {
    await runner?.stop();
    runner = undefined;
    await documents.close();
    await eventStore.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('given two live projections caught up, when one append wakes both, then their writes and checkpoints commit in one transaction', async () => {
    await append('thing-0', 3);
    const running = await start([
      countingProjection('counts_a', 'counts_a'),
      countingProjection('counts_b', 'counts_b'),
    ]);
    await caughtUp(running);
    const commitAll = jest.spyOn(documents, 'commitAll');
    const before = walCommits(documentsFile);

    await append('thing-1', 2);
    await caughtUp(running);

    const head = await eventStore.headPosition();
    expect(walCommits(documentsFile) - before).toBe(1);
    expect(commitAll).toHaveBeenCalledTimes(1);
    expect(commitAll.mock.calls[0]?.[0].map((batch) => batch.checkpoint)).toEqual(
      expect.arrayContaining([
        { name: 'counts_a', position: head, expectedPosition: head - 2 },
        { name: 'counts_b', position: head, expectedPosition: head - 2 },
      ]),
    );
    expect(await counts('counts_a')).toEqual(await countsUpTo(head));
    expect(await counts('counts_b')).toEqual(await countsUpTo(head));
  });

  it('given one projection that fails on an event, then the others of its round commit and go on, and only it holds at that event until it passes', async () => {
    await append('thing-0', 2);
    let poisoned = true;
    const fragile: Projection = {
      ...countingProjection('fragile', 'fragile'),
      async handle(event, ctx) {
        if (poisoned && event.type === 'Poison') throw new Error('cannot handle Poison yet');
        await countingProjection('fragile', 'fragile').handle(event, ctx);
      },
    };
    const running = await start([countingProjection('counts', 'counts'), fragile]);
    await caughtUp(running);
    const heldAt = await eventStore.headPosition();

    await append('thing-1', 1, 'Poison');
    await append('thing-2', 3);
    const head = await eventStore.headPosition();
    while (running.status().find((s) => s.name === 'counts')?.position !== head) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }

    expect(running.status()).toEqual([
      { name: 'counts', position: head, rebuilding: false },
      {
        name: 'fragile',
        position: heldAt,
        rebuilding: false,
        error: 'cannot handle Poison yet',
      },
    ]);
    expect(await documents.readCheckpoint('fragile')).toBe(heldAt);
    expect(await counts('fragile')).toEqual(await countsUpTo(heldAt));
    expect(await counts('counts')).toEqual(await countsUpTo(head));

    poisoned = false;
    await caughtUp(running);

    expect(await counts('fragile')).toEqual(await countsUpTo(head));
    expect(await counts('counts')).toEqual(await countsUpTo(head));
    expect(running.status().every((status) => status.error === undefined)).toBe(true);
  });

  it('given a process killed inside a round, then every projection is at a checkpoint its documents match, and a restart applies each event once', async () => {
    await documents.close();
    await eventStore.close();
    const signal = await killWhenFrozen(CHILD, [
      path.join(dir, 'events.sqlite'),
      documentsFile,
      '3',
    ]);
    expect(signal).toBe('SIGKILL');
    eventStore = new SqliteEventStore({ file: path.join(dir, 'events.sqlite') });
    documents = new SqliteDocumentStore({ file: documentsFile });

    // The Freeze event is the last of the log; the round that handled it committed nothing,
    // neither the batch written before the freeze nor the frozen one.
    const beforeFreeze = (await eventStore.headPosition()) - 1;
    for (const name of ['counts_a', 'counts_b']) {
      expect(await documents.readCheckpoint(name)).toBe(beforeFreeze);
      expect(await counts(name)).toEqual(await countsUpTo(beforeFreeze));
    }

    const restarted = await start([
      countingProjection('counts_a', 'counts_a'),
      countingProjection('counts_b', 'counts_b'),
    ]);
    await caughtUp(restarted);
    const head = await eventStore.headPosition();
    expect(await counts('counts_a')).toEqual(await countsUpTo(head));
    expect(await counts('counts_b')).toEqual(await countsUpTo(head));
  });
});
