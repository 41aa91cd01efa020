import { jest } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SqliteEventStore } from '#hawser/eventstore';
import { SqliteDocumentStore } from '../sqlite/sqlite-document-store.js';
import {
  countingProjection,
  newEvents as events,
  type StreamCount,
} from '../test-support/counting-projection.js';
import { ProjectionRunner } from './projection-runner.js';

describe('a live projection reading what it committed', () => {
  let dir: string;
  let eventStore: SqliteEventStore;
  let documents: SqliteDocumentStore;
  let runner: ProjectionRunner;

  const caughtUp = async () =>
    expect(await runner.waitForPosition(await eventStore.headPosition(), 10_000)).toBe(true);
  const countOf = async (id: string) => (await documents.get<StreamCount>('counts', id))?.count;
  const appendTo = (stream: string, count: number) =>
    eventStore.append(stream, events(count), { expectedRevision: 'any' });

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-'));
    eventStore = new SqliteEventStore({ file: path.join(dir, 'events.sqlite') });
    documents = new SqliteDocumentStore({ file: path.join(dir, 'read-models.sqlite') });
    await appendTo('thing-1', 3);
    await appendTo('thing-2', 2);
    runner = new ProjectionRunner(eventStore, documents, [countingProjection('counts', 'counts')]);
    await runner.start();
    await caughtUp();
  });
  afterEach(async () => {
    await runner.stop();
    await documents.close();
    await eventStore.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('given a projection that committed a stream document, when the stream moves on, then it folds from what it committed without asking the store', async () => {
    await appendTo('thing-1', 1);
    await caughtUp();
    const gets = jest.spyOn(documents, 'get');

    for (let n = 0; n < 5; n += 1) {
      await appendTo('thing-1', 1);
      await appendTo('thing-2', 1);
      await caughtUp();
    }

    expect(gets).not.toHaveBeenCalled();
    expect(await countOf('thing-1')).toBe(9);
    expect(await countOf('thing-2')).toBe(7);
  });

  it('given a paused projection whose document changed behind it, when resumed, then it reads the store again', async () => {
    await runner.pause('counts');
    await documents.write([
      { kind: 'put', collection: 'counts', document: { id: 'thing-1', count: 100, lastType: 'x' } },
    ]);
    runner.resume('counts');

    await appendTo('thing-1', 1);
    await caughtUp();

    expect(await countOf('thing-1')).toBe(101);
  });

  it('given a projection whose commit failed, when the next event comes, then it reads the store again and applies nothing twice', async () => {
    const commitAll = documents.commitAll.bind(documents);
    jest
      .spyOn(documents, 'commitAll')
      .mockImplementationOnce(() => Promise.reject(new Error('disk I/O error')))
      .mockImplementation(commitAll);
    const gets = jest.spyOn(documents, 'get');

    await appendTo('thing-1', 1);
    await caughtUp();

    expect(gets).toHaveBeenCalledWith('counts', 'thing-1');
    expect(await countOf('thing-1')).toBe(4);
  });
});
