import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createEventStore, type EventStore } from '#hawser/eventstore';
import {
  measureBatchedAppends,
  measureGlobalRead,
  measureShareSeeding,
  measureSingleEventAppends,
  measureSubscriptionCatchUp,
  type Measure,
} from './eventstore-measures.js';
import { measureShareListingRebuild } from './share-listing-rebuild.js';

export * from './eventstore-measures.js';
export * from './seed-share-events.js';
export * from './share-listing-rebuild.js';

/** Sized so the whole run stays well under a minute on a small machine. */
export const BENCH_SIZES = {
  singleAppends: 20_000,
  batchedEvents: 300_000,
  batchSize: 100,
  seededShareEvents: 100_000,
  readPageSize: 1_000,
} as const;

export interface BenchStore {
  readonly store: EventStore;
  readonly adapter: 'sqlite' | 'kurrentdb';
  /** Closes the store and removes what the bench created on disk. */
  readonly dispose: () => Promise<void>;
}

/** A fresh SQLite file in a temp directory, or the server named by EVENTSTORE_URL. */
export async function openBenchStore(): Promise<BenchStore> {
  const eventstoreUrl = process.env.EVENTSTORE_URL;
  if (eventstoreUrl !== undefined && eventstoreUrl !== '') {
    const store = await createEventStore({ dataDir: os.tmpdir(), eventstoreUrl });
    return { store, adapter: 'kurrentdb', dispose: () => store.close() };
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-bench-'));
  const store = await createEventStore({ dataDir });
  return {
    store,
    adapter: 'sqlite',
    dispose: async () => {
      await store.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** One JSON line per measure, for machines. */
export function reportLine(section: string, adapter: string, measure: Measure): string {
  return JSON.stringify({
    bench: section,
    adapter,
    measure: measure.name,
    events: measure.events,
    ...(measure.appends !== undefined && { appends: measure.appends }),
    seconds: Number(measure.seconds.toFixed(3)),
    ...(measure.cpuSeconds !== undefined && { cpuSeconds: Number(measure.cpuSeconds.toFixed(3)) }),
    perSecond: Math.round(measure.perSecond),
    unit: measure.unit,
  });
}

/** A short table, for people. */
export function reportTable(measures: readonly Measure[]): string {
  const width = Math.max(...measures.map((m) => m.name.length));
  return measures
    .map(
      (m) =>
        `${m.name.padEnd(width)}  ${Math.round(m.perSecond).toLocaleString('en-US').padStart(11)} ${m.unit.padEnd(9)}  (${m.events.toLocaleString('en-US')} events, ${m.seconds.toFixed(2)} s${m.cpuSeconds === undefined ? '' : `, ${m.cpuSeconds.toFixed(2)} s CPU`})`,
    )
    .join('\n');
}

/** The event store section: write rates, then read rates over everything written. */
export async function runEventStoreBench(
  store: EventStore,
  onMeasure: (measure: Measure) => void,
): Promise<Measure[]> {
  const steps = [
    () => measureSingleEventAppends(store, BENCH_SIZES.singleAppends),
    () => measureBatchedAppends(store, BENCH_SIZES.batchedEvents, BENCH_SIZES.batchSize),
    () => measureShareSeeding(store, BENCH_SIZES.seededShareEvents),
    () => measureGlobalRead(store, BENCH_SIZES.readPageSize),
    () => measureSubscriptionCatchUp(store),
  ];
  const measures: Measure[] = [];
  for (const step of steps) {
    const measure = await step();
    onMeasure(measure);
    measures.push(measure);
  }
  return measures;
}

/** `--rebuild-events N` (default 1,000,000; 0 skips the section). */
const rebuildEvents = (args: string[]): number => {
  const index = args.indexOf('--rebuild-events');
  const value = index >= 0 ? Number(args[index + 1]) : 1_000_000;
  if (!Number.isInteger(value) || value < 0 || value % 5 !== 0) {
    throw new Error('--rebuild-events takes a whole number of share streams (a multiple of 5)');
  }
  return value;
};

async function main(): Promise<void> {
  const events = rebuildEvents(process.argv.slice(2));
  const { store, adapter, dispose } = await openBenchStore();
  let measures: Measure[];
  try {
    measures = await runEventStoreBench(store, (measure) =>
      console.log(reportLine('eventstore', adapter, measure)),
    );
  } finally {
    await dispose();
  }
  if (events > 0) {
    const listing = await openBenchStore();
    try {
      const rebuilt = await measureShareListingRebuild(listing.store, events, (seconds) =>
        console.error(
          `seeded ${events.toLocaleString('en-US')} share events in ${seconds.toFixed(1)} s`,
        ),
      );
      for (const measure of rebuilt)
        console.log(reportLine('share-listing', listing.adapter, measure));
      measures = [...measures, ...rebuilt];
    } finally {
      await listing.dispose();
    }
  }
  console.log(`\nevent store (${adapter})\n${reportTable(measures)}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
