import type Database from 'better-sqlite3';
import type { CollectionTables } from './sqlite-collection-tables.js';

/** A large store takes a while to move; another process opening it meanwhile waits this long. */
const MIGRATION_BUSY_TIMEOUT_MS = 300_000;

/**
 * Moves a file written by the earlier layout (every collection in one `documents` table with
 * table-wide indexes) into one table per collection, then drops the old table and its indexes.
 * Aliases, prepared generations and checkpoints keep their meaning. Declared indexes are not
 * carried over: the old layout did not record which collection they served, and the
 * projection runner declares them again at start. Does nothing on a file already moved.
 */
export function migrateSharedDocumentsTable(
  db: Database.Database,
  tables: CollectionTables,
  busyTimeoutMs: number,
): void {
  const hasSharedTable = db
    .prepare(`SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'documents'`)
    .pluck();
  if (hasSharedTable.get() === undefined) return;
  db.pragma(`busy_timeout = ${MIGRATION_BUSY_TIMEOUT_MS}`);
  try {
    db.transaction(() => {
      // Another process may have moved it while this one waited for the lock.
      if (hasSharedTable.get() === undefined) return;
      const collections = db
        .prepare('SELECT DISTINCT collection FROM documents')
        .pluck()
        .all() as string[];
      const copy = (table: string) =>
        db.prepare(
          `INSERT INTO ${table} (id, doc) SELECT id, doc FROM documents WHERE collection = ?`,
        );
      for (const collection of collections) {
        copy(tables.ensure(collection).table).run(collection);
      }
      db.exec('DROP TABLE documents');
    }).immediate();
  } finally {
    db.pragma(`busy_timeout = ${busyTimeoutMs}`);
  }
}
