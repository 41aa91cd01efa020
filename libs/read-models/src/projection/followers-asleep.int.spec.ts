import { jest } from '@jest/globals';
import path from 'node:path';
import { SqliteEventStore } from '#hawser/eventstore';
import type { SqliteDocumentStore } from '../sqlite/sqlite-document-store.js';
import { SharedLogReader } from '../subscription/shared-log-reader.js';
import { countingProjection, newEvents as events } from '../test-support/counting-projection.js';
import { startLiveProjections, type LiveProjections } from '../test-support/live-projections.js';
import type { Projection } from './projection.js';
import { ProjectionRunner } from './projection-runner.js';

/** Follows `other-` streams only. */
const otherProjection: Projection = {
  name: 'others',
  collections: ['others'],
  filter: { streamPrefixes: ['other-'] },
  handle: (event, ctx) => ctx.put('others', { id: event.streamId }),
};

describe('projections asleep through the events they do not follow', () => {
  let live: LiveProjections;
  let eventStore: SqliteEventStore;
  let documents: SqliteDocumentStore;
  let runner: ProjectionRunner;

  beforeEach(async () => {
    live = await startLiveProjections(
      [countingProjection('counts', 'counts'), otherProjection],
      (log) => log.append('other-1', events(1), { expectedRevision: 'any' }),
      // No wake by time-out during a spec: only the log's reads move or wake a follower.
      { pollIntervalMs: 60_000 },
    );
    ({ eventStore, documents, runner } = live);
  });
  afterEach(() => live.close());

  it('given events only one projection follows, when a write waits for each, then it is answered, the other projection asked for no page and is moved past them by the shared reads', async () => {
    const pages = jest.spyOn(SharedLogReader.of(eventStore), 'page');

    let last = 0;
    for (let n = 0; n < 5; n += 1) {
      ({ position: last } = await eventStore.append(`thing-${n}`, events(2), {
        expectedRevision: 'any',
      }));
      expect(await runner.waitForPosition(last, 10_000)).toBe(true);
    }

    const othersPages = pages.mock.calls.filter(
      ([, options]) => options.filter?.streamPrefixes?.[0] === 'other-',
    );
    expect(othersPages).toHaveLength(0);
    expect(runner.status().map((p) => [p.name, p.position >= last])).toEqual([
      ['counts', true],
      ['others', true],
    ]);
    expect((await documents.find('counts')).length).toBe(5);
  });

  it('given a projection asleep through events it does not follow, when paused, then it stays where it had reached and what comes after is not counted as dealt with until it resumes', async () => {
    const { position: slept } = await eventStore.append('thing-1', events(3), {
      expectedRevision: 'any',
    });
    expect(await runner.waitForPosition(slept, 10_000)).toBe(true);

    await runner.pause('others');
    const { position: later } = await eventStore.append('thing-2', events(1), {
      expectedRevision: 'any',
    });
    // Another follower's read of the page holding `later` does not move the paused one.
    expect(await runner.waitForPosition(later, 200)).toBe(false);
    const held = runner.status().find((p) => p.name === 'others')?.position;
    runner.resume('others');

    expect(held).toBe(slept);
    expect(held).toBeLessThan(later);
    expect(await runner.waitForPosition(later, 10_000)).toBe(true);
  });

  it('given a projection asleep, when an event it follows is appended, then it wakes and handles it', async () => {
    const { position } = await eventStore.append('other-2', events(1), {
      expectedRevision: 'any',
    });

    expect(await runner.waitForPosition(position, 10_000)).toBe(true);
    expect((await documents.find('others')).map((d) => d.id).sort()).toEqual([
      'other-1',
      'other-2',
    ]);
  });

  it('given an append by another process (another store on the file), when a write waits for it, then it is answered and the projection that follows it handled it', async () => {
    const other = new SqliteEventStore({ file: path.join(live.dir, 'events.sqlite') });
    const { position } = await other.append('other-3', events(1), { expectedRevision: 'any' });

    const reached = await runner.waitForPosition(position, 10_000);

    expect(reached).toBe(true);
    expect((await documents.find('others')).map((d) => d.id)).toContain('other-3');
    await other.close();
  });

  it('given a projection moved past events it slept through, when the runner restarts on the same stores, then it resumes from its stored checkpoint (never past it) and handles what follows', async () => {
    const { position: slept } = await eventStore.append('thing-1', events(5), {
      expectedRevision: 'any',
    });
    expect(await runner.waitForPosition(slept, 10_000)).toBe(true);
    const reported = runner.status().find((p) => p.name === 'others')?.position ?? 0;
    await runner.stop();
    const stored = (await documents.readCheckpoint('others')) ?? 0;

    const restarted = new ProjectionRunner(eventStore, documents, [otherProjection]);
    await restarted.start();
    const { position } = await eventStore.append('other-4', events(1), {
      expectedRevision: 'any',
    });
    const reached = await restarted.waitForPosition(position, 10_000);
    await restarted.stop();

    expect(reported).toBeGreaterThanOrEqual(slept);
    expect(stored).toBeLessThanOrEqual(reported);
    expect(reached).toBe(true);
    expect((await documents.find('others')).map((d) => d.id).sort()).toEqual([
      'other-1',
      'other-4',
    ]);
  });
});
