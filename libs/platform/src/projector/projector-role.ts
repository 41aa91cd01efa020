import { Logger } from '@nestjs/common';
import type { ProcessIdentity } from '#hawser/drivers';
import type { SqliteProjectorLease } from './projector-lease.js';

type Start = () => Promise<void>;

/** What a process says of its projector role (admin status, start-up line). */
export interface ProjectorRoleStatus {
  readonly role: 'active' | 'standby';
  /** The process that projects, when one holds the lease. */
  readonly holder?: Pick<ProcessIdentity, 'pid' | 'hostname'>;
}

/**
 * Whether this process is the projector: the one process that runs the projections and the
 * API's process managers. Alone (the all-in-one) it always is; among several API processes it
 * is while it holds the lease, renewed by heartbeat. Work that only the projector does is
 * started through `whenActive`, at once or when a standby takes over. A holder whose renewal is
 * refused (it stalled past its expiry and another took over) calls `onLost`, which ends it: a
 * runner cannot be stopped half-way safely, and its compare-and-set checkpoints already keep
 * its last batch from being committed twice.
 */
export class ProjectorRole {
  private active = false;
  private readonly pending: Start[] = [];
  private timer: NodeJS.Timeout | undefined;
  private beating = false;
  private readonly logger = new Logger('projector');

  private constructor(
    private readonly lease: SqliteProjectorLease | undefined,
    private readonly heartbeatMs: number,
    private readonly onLost: () => void,
    private readonly candidate = true,
  ) {}

  /** The single process: always the projector, no lease. */
  static alone(): ProjectorRole {
    const role = new ProjectorRole(undefined, 0, () => undefined);
    role.active = true;
    return role;
  }

  /** One of several candidates, elected by the lease. */
  static elected(lease: SqliteProjectorLease, ttlMs: number, onLost: () => void): ProjectorRole {
    return new ProjectorRole(lease, Math.max(100, Math.floor(ttlMs / 3)), onLost);
  }

  /**
   * One of several processes that never projects (a cluster's serving process beside its own
   * projector process): it only reads who holds the lease.
   */
  static observer(lease: SqliteProjectorLease): ProjectorRole {
    return new ProjectorRole(lease, 0, () => undefined, false);
  }

  get isActive(): boolean {
    return this.active;
  }

  /** Runs `start` now when this process projects (resolving once started), else on takeover. */
  async whenActive(start: Start): Promise<void> {
    if (this.active) await start();
    else this.pending.push(start);
  }

  /** Tries for the lease once (starting what waits if won), then keeps trying or renewing. */
  async begin(): Promise<void> {
    if (this.lease === undefined || !this.candidate) return;
    if (await this.lease.tryTake()) await this.activate();
    this.timer = setInterval(() => void this.beat(), this.heartbeatMs);
    this.timer.unref();
  }

  status(): ProjectorRoleStatus {
    const holder = this.lease?.holder();
    return {
      role: this.active ? 'active' : 'standby',
      ...(holder ? { holder: { pid: holder.holder.pid, hostname: holder.holder.hostname } } : {}),
    };
  }

  /** Stops the heartbeat and lets go of the lease, so a standby takes over at once. */
  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    if (this.lease === undefined) return;
    if (this.active) this.lease.release();
    this.lease.close();
  }

  private async beat(): Promise<void> {
    if (this.beating) return;
    this.beating = true;
    const lease = this.lease as SqliteProjectorLease;
    let taken = false;
    try {
      if (this.active) {
        if (!lease.renew()) {
          this.logger.error('another process took the projector lease: stopping this one');
          this.onLost();
        }
      } else {
        taken = await lease.tryTake();
      }
    } catch (error) {
      this.logger.warn(`projector lease: ${String(error)}; trying again`);
    } finally {
      this.beating = false;
    }
    if (!taken) return;
    this.logger.log('took the projector lease: projecting from here');
    await this.activate().catch((error: unknown) => {
      this.logger.error(`the projector could not start: ${String(error)}`);
      this.onLost();
    });
  }

  private async activate(): Promise<void> {
    this.active = true;
    for (let start = this.pending.shift(); start; start = this.pending.shift()) await start();
  }
}
