import { faultInjectionPoint, type CommandContext, type CommandHandler } from '#hawser/application';
import {
  decideReservationExpiry,
  derivedId,
  quotaDecider,
  quotaStream,
  releaseOfExpired,
  reservationFate,
  shareStream,
} from '#hawser/domain';
import {
  WrongExpectedRevisionError,
  type EventStore,
  type RecordedEvent,
} from '#hawser/eventstore';
import type { DocumentStore } from '#hawser/read-models';
import { shareEvents } from '../../../../eventstore/decoders.js';
import {
  PENDING_RESERVATIONS,
  type PendingReservationDocument,
} from './pending-reservations.process-manager.js';

export interface ReservationExpiryOptions {
  /** How long a reservation may wait for its request (HAWSER_RESERVATION_EXPIRE_S). */
  readonly expireAfterMs: number;
  /** How often pending reservations are looked at; default half the bound, at most 30 s. */
  readonly pollIntervalMs?: number;
  readonly clock?: () => Date;
  /** Told about a pass that failed; the next pass tries again. */
  readonly onError?: (error: unknown) => void;
}

/** A fence that keeps meeting newer revisions of a busy share is tried again next pass. */
const FENCE_ATTEMPTS = 20;

/**
 * Releases reservations no request claimed within the bound (Manila's reservation_expire). One
 * pass at start, so reservations a crash left behind are released as soon as they are due,
 * then one every poll interval. Each expiry fences the request out of the share's stream before
 * it releases the quota, and every step is idempotent, so a crash anywhere in a pass, or two
 * processes passing at once, releases each reservation once and never one whose request was
 * recorded.
 */
export class ReservationExpiry {
  private timer: NodeJS.Timeout | undefined;
  private pass: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly events: EventStore,
    private readonly commands: CommandHandler,
    private readonly documents: DocumentStore,
    private readonly options: ReservationExpiryOptions,
  ) {}

  start(): void {
    this.stopped = false;
    const interval =
      this.options.pollIntervalMs ??
      Math.min(Math.max(this.options.expireAfterMs / 2, 100), 30_000);
    const run = () => {
      this.pass = this.expireDue()
        .then(() => undefined)
        .catch((error: unknown) => this.options.onError?.(error))
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(run, interval);
        });
    };
    run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.pass;
  }

  /**
   * One pass: every pending reservation older than the bound ends claimed or released. Returns
   * how many this pass gave back.
   */
  async expireDue(): Promise<number> {
    const now = this.now();
    const cutoff = new Date(now.getTime() - this.options.expireAfterMs).toISOString();
    const due = await this.documents.find<PendingReservationDocument>(
      PENDING_RESERVATIONS,
      { reservedAt: { $lte: cutoff } },
      { sort: [['reservedAt', 1]] },
    );
    let released = 0;
    for (const reservation of due) {
      if (this.stopped) break;
      if (await this.expire(reservation, now.toISOString())) released += 1;
    }
    return released;
  }

  /** Fences, then releases; true when this pass gave quota back. */
  private async expire(reservation: PendingReservationDocument, now: string): Promise<boolean> {
    const fate = await this.fence(reservation, now);
    if (fate === 'open') return false;
    let gaveBack = false;
    if (fate === 'expired') {
      faultInjectionPoint('after-reservation-fenced');
      const released = await this.commands.handle(
        quotaDecider,
        quotaStream(reservation.projectId),
        releaseOfExpired(reservation, now),
        this.context(reservation, 'release'),
        { retryOnConflict: 50 },
      );
      gaveBack = released.events.length > 0;
    }
    await this.documents.write([
      { kind: 'delete', collection: PENDING_RESERVATIONS, id: reservation.id },
    ]);
    return gaveBack;
  }

  /**
   * Appends the fence at the revision the decision read: a request recorded in between makes
   * the append conflict, and the next reading finds it claimed. `open` when the share stayed too
   * busy to fence this pass.
   */
  private async fence(
    reservation: PendingReservationDocument,
    now: string,
  ): Promise<'claimed' | 'expired' | 'open'> {
    const stream = shareStream(reservation.shareId);
    for (let attempt = 0; attempt < FENCE_ATTEMPTS; attempt += 1) {
      const history = (await this.events.readStream(stream)).map(withCommandId);
      const fate = reservationFate(history, reservation.id);
      if (fate !== 'open') return fate;
      const fence = decideReservationExpiry(
        { type: 'ExpireReservation', reservationId: reservation.id, now },
        history,
      );
      const context = this.context(reservation, 'fence');
      const last = history[history.length - 1];
      try {
        await this.events.append(
          stream,
          fence.map((event, index) => ({
            id: derivedId(context.commandId, index),
            type: event.type,
            data: event.data,
            metadata: {
              commandId: context.commandId,
              $correlationId: context.correlationId,
              $causationId: context.causationId,
              userId: context.userId,
              projectId: context.projectId,
            },
          })),
          { expectedRevision: last === undefined ? 'no_stream' : last.revision },
        );
        return 'expired';
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError)) throw error;
      }
    }
    return 'open';
  }

  /** Ids derive from the reservation, so a pass repeated after a crash writes nothing twice. */
  private context(reservation: PendingReservationDocument, purpose: string): CommandContext {
    return {
      commandId: derivedId(reservation.id, `reservation-expiry-${purpose}`),
      correlationId: reservation.id,
      causationId: reservation.id,
      userId: 'quota',
      projectId: reservation.projectId,
    };
  }

  private now(): Date {
    return this.options.clock?.() ?? new Date();
  }
}

const withCommandId = (recorded: RecordedEvent) => {
  const event = shareEvents.decode(recorded);
  return { ...event, commandId: event.metadata.commandId };
};
