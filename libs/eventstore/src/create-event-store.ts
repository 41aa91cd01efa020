import fs from 'node:fs';
import path from 'node:path';
import type { EventStore } from './event-store.port.js';
import { SqliteEventStore } from './sqlite/sqlite-event-store.js';
import type { UpcasterRegistry } from './upcaster-registry.js';

export interface EventStoreConfig {
  /** Directory of the embedded log (`events.sqlite`), created when missing. */
  readonly dataDir: string;
  /** KurrentDB/EventStoreDB connection string; when set, the embedded log is not used. */
  readonly eventstoreUrl?: string;
  readonly upcasters?: UpcasterRegistry;
}

/**
 * KurrentDB when a URL is configured, otherwise the embedded SQLite log in `dataDir`. The
 * KurrentDB client (gRPC) is loaded only when it is used: it is a large part of a start.
 */
export async function createEventStore(config: EventStoreConfig): Promise<EventStore> {
  if (config.eventstoreUrl !== undefined && config.eventstoreUrl !== '') {
    const { KurrentDbEventStore } = await import('./kurrentdb/kurrentdb-event-store.js');
    return new KurrentDbEventStore(config.eventstoreUrl, config.upcasters);
  }
  fs.mkdirSync(config.dataDir, { recursive: true });
  return new SqliteEventStore({
    file: path.join(config.dataDir, 'events.sqlite'),
    upcasters: config.upcasters,
  });
}
