import Database from 'better-sqlite3';
import { livenessOf, type Liveness, type ProcessIdentity } from '#hawser/drivers';

const BUSY_TIMEOUT_MS = 5_000;
const LEASE = 'projector';

interface LeaseRow {
  readonly holder: string;
  readonly token: number;
  readonly expires_at: number;
}

/** Who holds the projector's lease and until when (milliseconds since the epoch). */
export interface LeaseHolder {
  readonly holder: ProcessIdentity;
  readonly expiresAt: number;
}

/**
 * The projector's lease: one row in a SQLite file under the data directory, so every process of
 * one machine sees it. A holder renews it by heartbeat. A standby takes it from a holder of this
 * host as soon as that process no longer runs (SIGKILLed), and from one of another host once
 * the lease has expired. Every
 * change is a compare-and-set on the row's token, which a taker increments: a holder that
 * stalled past its expiry finds its renewal refused and knows it lost the lease.
 */
export class SqliteProjectorLease {
  private readonly db: Database.Database;
  private readonly me: string;
  private token: number | undefined;

  constructor(
    file: string,
    private readonly self: ProcessIdentity,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.db = new Database(file);
    this.db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    this.db.pragma('journal_mode = WAL');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS leases (
        name       TEXT PRIMARY KEY,
        holder     TEXT NOT NULL,
        token      INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      );
    `);
    this.me = JSON.stringify(self);
  }

  /** True when this process holds the lease now (taken or renewed). */
  async tryTake(): Promise<boolean> {
    const row = this.row();
    if (row === undefined) {
      const taken = this.db
        .prepare(
          'INSERT OR IGNORE INTO leases (name, holder, token, expires_at) VALUES (?, ?, 1, ?)',
        )
        .run(LEASE, this.me, this.now() + this.ttlMs);
      if (taken.changes === 1) this.token = 1;
      return taken.changes === 1;
    }
    if (row.holder === this.me) {
      this.token = row.token;
      return this.renew();
    }
    if (!(await this.mayTakeFrom(row))) return false;
    const taken = this.db
      .prepare(
        'UPDATE leases SET holder = ?, token = token + 1, expires_at = ? WHERE name = ? AND token = ?',
      )
      .run(this.me, this.now() + this.ttlMs, LEASE, row.token);
    if (taken.changes === 1) this.token = row.token + 1;
    return taken.changes === 1;
  }

  /** Extends the lease; false when another process took it meanwhile. */
  renew(): boolean {
    if (this.token === undefined) return false;
    const renewed = this.db
      .prepare('UPDATE leases SET expires_at = ? WHERE name = ? AND holder = ? AND token = ?')
      .run(this.now() + this.ttlMs, LEASE, this.me, this.token);
    if (renewed.changes === 1) return true;
    this.token = undefined;
    return false;
  }

  /** Lets go of the lease (a clean stop), so a standby takes it at its next attempt. */
  release(): void {
    if (this.token === undefined) return;
    this.db
      .prepare('DELETE FROM leases WHERE name = ? AND holder = ? AND token = ?')
      .run(LEASE, this.me, this.token);
    this.token = undefined;
  }

  holder(): LeaseHolder | undefined {
    const row = this.row();
    if (row === undefined) return undefined;
    return { holder: JSON.parse(row.holder) as ProcessIdentity, expiresAt: row.expires_at };
  }

  close(): void {
    this.db.close();
  }

  private row(): LeaseRow | undefined {
    return this.db
      .prepare('SELECT holder, token, expires_at FROM leases WHERE name = ?')
      .get(LEASE) as LeaseRow | undefined;
  }

  /**
   * A holder on this host is judged by whether it runs, not by its heartbeat: one starved of CPU
   * for longer than the lease keeps it rather than handing over and back. One on another host
   * can only be judged by its expiry.
   */
  private async mayTakeFrom(row: LeaseRow): Promise<boolean> {
    let liveness: Liveness;
    try {
      liveness = await livenessOf(JSON.parse(row.holder) as ProcessIdentity, this.self);
    } catch {
      liveness = 'other-host';
    }
    if (liveness === 'other-host') return row.expires_at <= this.now();
    return liveness === 'dead';
  }
}
