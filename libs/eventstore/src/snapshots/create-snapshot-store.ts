import fs from 'node:fs';
import path from 'node:path';
import type { SnapshotStore } from './snapshot-store.port.js';
import { SqliteSnapshotStore } from './sqlite-snapshot-store.js';

/**
 * `snapshots.sqlite` in `dataDir`, whichever event store is configured: snapshots are checked
 * against the log they came from, so a process's local file is as good as a shared one.
 */
export function createSnapshotStore(dataDir: string): SnapshotStore {
  fs.mkdirSync(dataDir, { recursive: true });
  return new SqliteSnapshotStore(path.join(dataDir, 'snapshots.sqlite'));
}
