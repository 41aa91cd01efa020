import Database from 'better-sqlite3';
import type { SnapshotStore, StreamSnapshot } from './snapshot-store.port.js';

const BUSY_TIMEOUT_MS = 5_000;

type SnapshotRow = [revision: number, eventId: string, stateVersion: number, state: string];

/**
 * Snapshots in their own SQLite file, one row per stream: deleting the file loses nothing but
 * the time the next loads take to replay. Several processes may share it (WAL); as each
 * snapshot is checked against the event log, a process may also keep its own.
 */
export class SqliteSnapshotStore implements SnapshotStore {
  private readonly db: Database.Database;
  private readonly selectSnapshot: Database.Statement;
  private readonly upsertSnapshot: Database.Statement;
  private readonly deleteSnapshot: Database.Statement;

  /** `file` is a path, or ':memory:' for a private store. */
  constructor(file: string) {
    this.db = new Database(file);
    this.db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS snapshots (
        stream_id     TEXT    PRIMARY KEY,
        revision      INTEGER NOT NULL,
        event_id      TEXT    NOT NULL,
        state_version INTEGER NOT NULL,
        state         TEXT    NOT NULL
      );
    `);
    this.selectSnapshot = this.db
      .prepare('SELECT revision, event_id, state_version, state FROM snapshots WHERE stream_id = ?')
      .raw();
    this.deleteSnapshot = this.db.prepare('DELETE FROM snapshots WHERE stream_id = ?');
    this.upsertSnapshot = this.db.prepare(`
      INSERT INTO snapshots (stream_id, revision, event_id, state_version, state)
      VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (stream_id) DO UPDATE SET
        revision = excluded.revision,
        event_id = excluded.event_id,
        state_version = excluded.state_version,
        state = excluded.state
      WHERE excluded.revision > snapshots.revision
         OR excluded.state_version <> snapshots.state_version
    `);
  }

  async read(streamId: string): Promise<StreamSnapshot | undefined> {
    const row = this.selectSnapshot.get(streamId) as SnapshotRow | undefined;
    if (!row) return undefined;
    const [revision, eventId, stateVersion, state] = row;
    return { streamId, revision, eventId, stateVersion, state: JSON.parse(state) as unknown };
  }

  async write(snapshot: StreamSnapshot): Promise<void> {
    this.upsertSnapshot.run(
      snapshot.streamId,
      snapshot.revision,
      snapshot.eventId,
      snapshot.stateVersion,
      JSON.stringify(snapshot.state),
    );
  }

  async delete(streamId: string): Promise<void> {
    this.deleteSnapshot.run(streamId);
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
