import { Inject, Injectable, Logger } from '@nestjs/common';
import { CommandHandler } from '#hawser/application';
import type { EventStore } from '#hawser/eventstore';
import { pendingReservationsProcessManager, ReservationExpiry } from '#hawser/process-managers';
import type { DocumentStore } from '#hawser/read-models';
import {
  DOCUMENT_STORE,
  EVENT_STORE,
  HAWSER_CONFIG,
  ProjectorRole,
  WorkflowRunners,
  type HawserConfig,
} from '#hawser/platform';
import { ProcessManagerHost } from '../workflows/process-manager-host.js';

/**
 * Releases quota reservations that no request claimed within HAWSER_RESERVATION_EXPIRE_S, in
 * the process that serves the quota API: the pending-reservations index as a durable subscriber
 * of the log, and the expiry passes over it (one at start, then periodically).
 */
@Injectable()
export class ReservationExpiryWorkflow extends ProcessManagerHost {
  private readonly logger = new Logger('ReservationExpiry');
  private readonly expiry: ReservationExpiry;

  constructor(
    @Inject(EVENT_STORE) events: EventStore,
    @Inject(DOCUMENT_STORE) documents: DocumentStore,
    @Inject(HAWSER_CONFIG) config: HawserConfig,
    commands: CommandHandler,
    workflows: WorkflowRunners,
    role: ProjectorRole,
  ) {
    super(events, documents, config, workflows, role, [pendingReservationsProcessManager()]);
    this.expiry = new ReservationExpiry(events, commands, documents, {
      expireAfterMs: config.reservationExpireS * 1000,
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
