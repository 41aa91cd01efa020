import Database from 'better-sqlite3';

/**
 * A second connection to a SQLite file, holding its write lock as another process's long
 * transaction would: `hold` takes it (BEGIN IMMEDIATE), `release` lets it go, `close` does both
 * and closes the connection (safe in an `afterEach` whether the lock is held or not).
 */
export class WriteLockHolder {
  readonly connection: Database.Database;

  constructor(file: string) {
    this.connection = new Database(file);
  }

  hold(): void {
    this.connection.exec('BEGIN IMMEDIATE');
  }

  release(): void {
    if (this.connection.inTransaction) this.connection.exec('ROLLBACK');
  }

  close(): void {
    if (!this.connection.open) return;
    this.release();
    this.connection.close();
  }
}
