import { jest } from '@jest/globals';
import type { SqliteEventStore } from '#hawser/eventstore';
import type { SqliteDocumentStore } from '../sqlite/sqlite-document-store.js';
import {
  countingProjection,
  newEvents as events,
  type StreamCount,
} from '../test-support/counting-projection.js';
import { startLiveProjections, type LiveProjections } from '../test-support/live-projections.js';
import type { ProjectionRunner } from './projection-runner.js';

describe('a live projection reading what it committed', () => {
  let live: LiveProjections;
  let eventStore: SqliteEventStore;
  let documents: SqliteDocumentStore;
  let runner: ProjectionRunner;

  const caughtUp = async () => expect(await live.caughtUp()).toBe(true);
  const countOf = async (id: string) => (await documents.get<StreamCount>('counts', id))?.count;
  const appendTo = (stream: string, count: number) =>
    eventStore.append(stream, events(count), { expectedRevision: 'any' });

  beforeEach(async () => {
    live = await startLiveProjections([countingProjection('counts', 'counts')], async (log) => {
      await log.append('thing-1', events(3), { expectedRevision: 'any' });
      await log.append('thing-2', events(2), { expectedRevision: 'any' });
    });
    ({ eventStore, documents, runner } = live);
  });
  afterEach(() => live.close());

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
