import { setImmediate as nextTurn } from 'node:timers/promises';
import type { RecordedEvent } from '#hawser/eventstore';
import { countingProjection, newEvents as events } from '../test-support/counting-projection.js';
import { startLiveProjections, type LiveProjections } from '../test-support/live-projections.js';
import type { Projection } from './projection.js';

/** Follows streams of one prefix and remembers, in order, the positions it handled. */
const recordingProjection = (prefix: string): Projection & { handled: number[] } => ({
  name: prefix,
  collections: [prefix],
  filter: { streamPrefixes: [`${prefix}-`] },
  handled: [],
  async handle(event: RecordedEvent, ctx) {
    this.handled.push(event.position);
    ctx.put(prefix, { id: event.streamId, last: event.position });
    // A turn of the event loop per event: this follower falls well behind the appends.
    if (prefix === 'share') await nextTurn();
  },
});

/** What a follower said it had reached, and how many of its events it had handled then. */
interface Sample {
  readonly name: string;
  readonly position: number;
  readonly handled: number;
}

const BATCHES = 60;
const BATCH_SIZE = 100;

describe("a log follower's reported position, with many events appended straight to the store", () => {
  let live: LiveProjections;
  const share = recordingProjection('share');
  const other = recordingProjection('other');
  const recording = [share, other];

  beforeEach(async () => {
    share.handled.length = 0;
    other.handled.length = 0;
    live = await startLiveProjections(
      [share, other, countingProjection('counts', 'counts')],
      (log) => log.append('other-0', events(1), { expectedRevision: 'any' }),
    );
  });
  afterEach(() => live.close());

  it('given 6,000 events appended in batches of 100 (more than any page or window), most for one slow follower and a few for another, when positions are waited for, then no follower ever reports a position past an event it follows and has not handled, nor one below what it reported before, and every one reaches the head', async () => {
    const { eventStore, runner } = live;
    const samples: Sample[] = [];
    const sample = () => {
      for (const status of runner.status()) {
        const follower = recording.find((p) => p.name === status.name);
        if (follower) {
          samples.push({
            name: status.name,
            position: status.position,
            handled: follower.handled.length,
          });
        }
      }
    };
    let appending = true;
    const sampling = (async () => {
      while (appending) {
        sample();
        await nextTurn();
      }
    })();

    const answered: Promise<void>[] = [];
    for (let batch = 0; batch < BATCHES; batch += 1) {
      const { position } = await eventStore.append(`share-${batch % 3}`, events(BATCH_SIZE), {
        expectedRevision: 'any',
      });
      sample();
      if (batch % 7 === 3) {
        const { position: otherAt } = await eventStore.append(`other-${batch}`, events(1), {
          expectedRevision: 'any',
        });
        await eventStore.append(`thing-${batch}`, events(1), { expectedRevision: 'any' });
        // Read-your-writes on the follower that sleeps through most of the log.
        answered.push(
          runner.waitForPosition(otherAt, 60_000).then((reached) => {
            expect(reached).toBe(true);
            expect(other.handled).toContain(otherAt);
          }),
        );
      }
      if (batch % 10 === 9) {
        answered.push(
          runner.waitForPosition(position, 60_000).then((reached) => {
            expect(reached).toBe(true);
            expect(share.handled).toContain(position);
          }),
        );
      }
    }
    await Promise.all(answered);
    const head = await eventStore.headPosition();
    const reachedHead = await runner.waitForPosition(head, 60_000);
    appending = false;
    await sampling;
    sample();

    const followed = async (prefix: string) =>
      (await eventStore.readAll({ after: 0, filter: { streamPrefixes: [`${prefix}-`] } })).map(
        (event) => event.position,
      );
    const positions = { share: await followed('share'), other: await followed('other') };
    const overreaching = samples.filter((s) => {
      const due = positions[s.name as 'share' | 'other'].filter((p) => p <= s.position).length;
      return due > s.handled;
    });
    const highest = new Map<string, number>();
    const wentBack = samples.filter((s) => {
      const before = highest.get(s.name) ?? 0;
      highest.set(s.name, Math.max(before, s.position));
      return s.position < before;
    });
    expect(reachedHead).toBe(true);
    expect(wentBack).toEqual([]);
    expect(samples.length).toBeGreaterThan(BATCHES);
    expect(overreaching).toEqual([]);
    expect(share.handled).toEqual(positions.share);
    expect(other.handled).toEqual(positions.other);
    expect(runner.status().every((p) => p.position >= head)).toBe(true);
  }, 120_000);
});
