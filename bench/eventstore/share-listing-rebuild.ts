import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EventStore } from '#hawser/eventstore';
import { SHARES, sharesProjection } from '#hawser/projections';
import { createDocumentStore, ProjectionRunner, type DocumentStore } from '#hawser/read-models';
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
  const documents = await createDocumentStore({ dataDir, mongoUrl: process.env.MONGO_URL });
  const runner = new ProjectionRunner(store, documents, [sharesProjection]);
  try {
    const head = await store.headPosition();
    const catchUp = await clocked(async () => {
      await runner.start();
      if (!(await runner.waitForPosition(head, TIMEOUT_MS))) throw new Error('catch-up timed out');
    });
    await expectShares(documents, events / EVENTS_PER_SHARE);

    const rebuild = await clocked(() => runner.rebuild(sharesProjection.name));
    await expectShares(documents, events / EVENTS_PER_SHARE);

    return [
      {
        name: 'share listing: catch-up from 0',
        events,
        ...catchUp,
        perSecond: events / catchUp.seconds,
        unit: 'events/s',
      },
      {
        name: 'share listing: online rebuild + swap',
        events,
        ...rebuild,
        perSecond: events / rebuild.seconds,
        unit: 'events/s',
      },
    ];
  } finally {
    await runner.stop();
    await documents.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Wall-clock and CPU time of `work`, in seconds. */
const clocked = async (
  work: () => Promise<void>,
): Promise<{ seconds: number; cpuSeconds: number }> => {
  const cpuBefore = process.cpuUsage();
  const started = process.hrtime.bigint();
  await work();
  const cpu = process.cpuUsage(cpuBefore);
  return {
    seconds: Number(process.hrtime.bigint() - started) / 1e9,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
  };
};

const expectShares = async (documents: DocumentStore, expected: number): Promise<void> => {
  const listed = await documents.count(SHARES);
  if (listed !== expected) throw new Error(`the listing holds ${listed} shares, not ${expected}`);
};
