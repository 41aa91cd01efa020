import fs from 'node:fs';
import path from 'node:path';
import type { EventStore } from './event-store.port.js';
import { KurrentDbEventStore } from './kurrentdb/kurrentdb-event-store.js';
import { SqliteEventStore } from './sqlite/sqlite-event-store.js';
import type { UpcasterRegistry } from './upcaster-registry.js';

export interface EventStoreConfig {
  /** Directory of the embedded log (`events.sqlite`), created when missing. */
  readonly dataDir: string;
  /** KurrentDB/EventStoreDB connection string; when set, the embedded log is not used. */
  readonly eventstoreUrl?: string;
  readonly upcasters?: UpcasterRegistry;
}

/** KurrentDB when a URL is configured, otherwise the embedded SQLite log in `dataDir`. */
export function createEventStore(config: EventStoreConfig): EventStore {
  if (config.eventstoreUrl !== undefined && config.eventstoreUrl !== '') {
    return new KurrentDbEventStore(config.eventstoreUrl, config.upcasters);
  }
  fs.mkdirSync(config.dataDir, { recursive: true });
  return new SqliteEventStore({
    file: path.join(config.dataDir, 'events.sqlite'),
    upcasters: config.upcasters,
  });
}
