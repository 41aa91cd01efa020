import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EventStore } from '#hawser/eventstore';
import { SHARES, sharesProjection } from '#hawser/projections';
import { createDocumentStore, ProjectionRunner } from '#hawser/read-models';
import type { Measure } from './eventstore-measures.js';
import { EVENTS_PER_SHARE, seedShareEvents } from './seed-share-events.js';

const TIMEOUT_MS = 600_000;

/**
 * The share listing built from a log of `events` share events: first a catch-up from position
 * zero (a new read-model store), then an online rebuild into a fresh generation with its swap,
 * the operation admins run. The listing is checked to hold every seeded share.
 */
export async function measureShareListingRebuild(
  store: EventStore,
  events: number,
  onSeeded: (seconds: number) => void = () => undefined,
): Promise<Measure[]> {
  const seedStarted = process.hrtime.bigint();
  await seedShareEvents(store, events);
  onSeeded(Number(process.hrtime.bigint() - seedStarted) / 1e9);

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-bench-listing-'));
  const documents = createDocumentStore({ dataDir, mongoUrl: process.env.MONGO_URL });
  const runner = new ProjectionRunner(store, documents, [sharesProjection]);
  try {
    const head = await store.headPosition();
    const catchUpStarted = process.hrtime.bigint();
    await runner.start();
    if (!(await runner.waitForPosition(head, TIMEOUT_MS))) throw new Error('catch-up timed out');
    const catchUp = Number(process.hrtime.bigint() - catchUpStarted) / 1e9;
    await expectShares(documents, events / EVENTS_PER_SHARE);

    const rebuildStarted = process.hrtime.bigint();
    await runner.rebuild(sharesProjection.name);
    const rebuild = Number(process.hrtime.bigint() - rebuildStarted) / 1e9;
    await expectShares(documents, events / EVENTS_PER_SHARE);

    return [
      {
        name: 'share listing: catch-up from 0',
        events,
        seconds: catchUp,
        perSecond: events / catchUp,
        unit: 'events/s',
      },
      {
        name: 'share listing: online rebuild + swap',
        events,
        seconds: rebuild,
        perSecond: events / rebuild,
        unit: 'events/s',
      },
    ];
  } finally {
    await runner.stop();
    await documents.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const expectShares = async (
  documents: ReturnType<typeof createDocumentStore>,
  expected: number,
): Promise<void> => {
  const listed = await documents.count(SHARES);
  if (listed !== expected) throw new Error(`the listing holds ${listed} shares, not ${expected}`);
};
