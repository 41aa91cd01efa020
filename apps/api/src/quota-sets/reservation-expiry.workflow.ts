import { Injectable, Logger } from '@nestjs/common';
import { CommandHandler } from '#hawser/application';
import { pendingReservationsProcessManager, ReservationExpiry } from '#hawser/process-managers';
import { ProcessManagerHost } from '../workflows/process-manager-host.js';
import { ProcessManagerHosting } from '../workflows/process-manager-hosting.js';

/**
 * Releases quota reservations that no request claimed within HAWSER_RESERVATION_EXPIRE_S, in
 * the process that serves the quota API: the pending-reservations index as a durable subscriber
 * of the log, and the expiry passes over it (one at start, then periodically).
 */
@Injectable()
export class ReservationExpiryWorkflow extends ProcessManagerHost {
  private readonly logger = new Logger('ReservationExpiry');
  private readonly expiry: ReservationExpiry;

  constructor(hosting: ProcessManagerHosting, commands: CommandHandler) {
    super(hosting, [pendingReservationsProcessManager()]);
    this.expiry = new ReservationExpiry(hosting.events, commands, hosting.documents, {
      expireAfterMs: hosting.config.reservationExpireS * 1000,
      onError: (error) =>
        this.logger.warn(`expiry pass failed, retried next pass: ${String(error)}`),
    });
  }

  protected override async start(): Promise<void> {
    await super.start();
    this.expiry.start();
  }

  override async onApplicationShutdown(): Promise<void> {
    await this.expiry.stop();
    await super.onApplicationShutdown();
  }
}
