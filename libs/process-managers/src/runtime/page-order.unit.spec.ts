import type { RecordedEvent } from '#hawser/eventstore';
import { inLogOrder, streamsSideBySide, type HandleEvent } from './page-order.js';

const recorded = (streamId: string, position: number): RecordedEvent => ({
  id: `${streamId}@${position}`,
  type: 'Happened',
  data: {},
  metadata: { schemaVersion: 1, recordedAt: '' },
  streamId,
  revision: position,
  position,
});
/** a, b, a, c, b: two streams with two events, one with one. */
const PAGE = [
  recorded('a', 1),
  recorded('b', 2),
  recorded('a', 3),
  recorded('c', 4),
  recorded('b', 5),
];

/** Handles each event after one tick; `stopAt` (a position) is left undefined, as a stop. */
const ticking =
  (log: string[], stopAt?: number): HandleEvent<string> =>
  async (event) => {
    log.push(`start ${event.id}`);
    await new Promise((resolve) => setImmediate(resolve));
    log.push(`end ${event.id}`);
    return event.position === stopAt ? undefined : `done ${event.id}`;
  };

describe('page order', () => {
  it('given a page, when handled in log order, then each event starts after the one before ends', async () => {
    const log: string[] = [];

    const outcomes = await inLogOrder(PAGE, ticking(log));

    expect(outcomes).toEqual(PAGE.map((event) => `done ${event.id}`));
    expect(log).toEqual(PAGE.flatMap((event) => [`start ${event.id}`, `end ${event.id}`]));
  });

  it('given a stop in log order, then the events after it are not reached', async () => {
    const outcomes = await inLogOrder(PAGE, ticking([], 3));

    expect(outcomes).toEqual(['done a@1', 'done b@2', undefined, undefined, undefined]);
  });

  it('given a page, when its streams are handled side by side, then the streams start together and each keeps its order', async () => {
    const log: string[] = [];

    const outcomes = await streamsSideBySide(PAGE, ticking(log));

    expect(outcomes).toEqual(PAGE.map((event) => `done ${event.id}`));
    expect(log.slice(0, 3)).toEqual(['start a@1', 'start b@2', 'start c@4']);
    expect(log.indexOf('start a@3')).toBeGreaterThan(log.indexOf('end a@1'));
    expect(log.indexOf('start b@5')).toBeGreaterThan(log.indexOf('end b@2'));
  });

  it('given a stop in one stream side by side, then only that stream goes no further', async () => {
    const outcomes = await streamsSideBySide(PAGE, ticking([], 1));

    expect(outcomes).toEqual([undefined, 'done b@2', undefined, 'done c@4', 'done b@5']);
  });
});
