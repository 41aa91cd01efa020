import type { Decider } from '../shared/decider.js';
import { conflict } from '../shared/domain-error.js';
import type { ShareCommand } from '../share/share.commands.js';
import { shareDecider } from '../share/share.decide.js';
import type { ReservationExpired, ShareEvent } from '../share/share.events.js';
import type { ShareState } from '../share/share.state.js';
import type { QuotaCommand } from './quota.commands.js';
import type { QuotaEvent } from './quota.events.js';
import type { QuotaDeltas, QuotaSubjects } from './quota.resources.js';

/**
 * A user's request reserves quota on `quota-<project>`, then is recorded on `share-<id>`: two
 * streams, two appends, so a crash between them would leave a reservation no request claims.
 * Such a reservation expires: once the bound has passed, the expiry first fences the request out
 * of the share's stream (ReservationExpired, appended at the revision it read, so a request
 * recorded meanwhile makes the fence conflict and be re-decided), then releases the quota. A
 * request that comes after the fence is refused by its own decision. Whatever the interleaving,
 * a reservation ends either claimed by its recorded request or released with the request refused.
 */

/** A share-stream event as recorded: its domain event and the command id that wrote it. */
export type RecordedShareEvent = ShareEvent & { readonly commandId?: string | undefined };

/**
 * The reservation a recorded request claims: the share's, snapshot's or replica's quota holder,
 * or an extend's quota adjustment (its request's command id).
 */
export const claimedReservationOf = (event: RecordedShareEvent): string | undefined => {
  switch (event.type) {
    case 'ShareRequested':
      return event.data.shareId;
    case 'SnapshotRequested':
      return event.data.snapshotId;
    case 'ReplicaRequested':
      return event.data.quotaHolderId;
    case 'ShareResizeRequested':
      return event.commandId;
    default:
      return undefined;
  }
};

export type ReservationFate = 'claimed' | 'expired' | 'open';

/** Whether the share's history records the reservation's request, its fence, or neither yet. */
export const reservationFate = (
  history: readonly RecordedShareEvent[],
  reservationId: string,
): ReservationFate => {
  for (const event of history) {
    if (claimedReservationOf(event) === reservationId) return 'claimed';
    if (event.type === 'ReservationExpired' && event.data.reservationId === reservationId) {
      return 'expired';
    }
  }
  return 'open';
};

export interface ExpireReservation {
  readonly type: 'ExpireReservation';
  readonly reservationId: string;
  readonly now: string;
}

/** The fence: only a reservation whose request the share's history does not hold yet expires. */
export const decideReservationExpiry = (
  command: ExpireReservation,
  history: readonly RecordedShareEvent[],
): ReservationExpired[] =>
  reservationFate(history, command.reservationId) === 'open'
    ? [
        {
          type: 'ReservationExpired',
          data: { reservationId: command.reservationId, expiredAt: command.now },
        },
      ]
    : [];

/**
 * A user's request the quota counts before the request is recorded, with what it counted: the
 * quota keeps counters only, so an expiry gives back what the index remembers.
 */
export interface PendingReservation extends QuotaSubjects {
  /** The holder id, or the adjustment id for an extend. */
  readonly reservationId: string;
  readonly projectId: string;
  /** The share whose stream must record the request. */
  readonly shareId: string;
  readonly holderId: string;
  /** Set for an extend: the adjustment to revert. */
  readonly adjustmentId?: string;
  /** What the reservation counted (absent in entries indexed before: nothing to give back). */
  readonly deltas?: QuotaDeltas;
  readonly reservedAt: string;
}

const subjectsOf = ({ userId, shareTypeId }: QuotaSubjects): QuotaSubjects => ({
  ...(userId !== undefined && { userId }),
  ...(shareTypeId !== undefined && { shareTypeId }),
});

/** The pending reservation a quota event starts; none for those not made by a user's request. */
export const pendingReservationOf = (event: QuotaEvent): PendingReservation | undefined => {
  if (event.type === 'QuotaReserved' && event.data.requestShareId !== undefined) {
    const { holderId, projectId, requestShareId, deltas, reservedAt } = event.data;
    return {
      reservationId: holderId,
      projectId,
      ...subjectsOf(event.data),
      shareId: requestShareId,
      holderId,
      deltas,
      reservedAt,
    };
  }
  if (event.type === 'QuotaAdjusted' && event.data.requestShareId !== undefined) {
    const { holderId, adjustmentId, projectId, requestShareId, deltas, adjustedAt } = event.data;
    return {
      reservationId: adjustmentId,
      projectId,
      ...subjectsOf(event.data),
      deltas,
      shareId: requestShareId,
      holderId,
      adjustmentId,
      reservedAt: adjustedAt,
    };
  }
  return undefined;
};

/** The reservation a quota event gives back (a refused request's, a deleted holder's). */
export const givenBackReservationOf = (event: QuotaEvent): string | undefined => {
  if (event.type === 'QuotaReleased') return event.data.holderId;
  if (event.type === 'QuotaAdjustmentReverted') return event.data.adjustmentId;
  return undefined;
};

/** What gives an expired reservation back: the holder's release, or the extend's revert. */
export const releaseOfExpired = (reservation: PendingReservation, now: string): QuotaCommand => {
  const given = {
    projectId: reservation.projectId,
    ...subjectsOf(reservation),
    holderId: reservation.holderId,
    deltas: reservation.deltas ?? {},
    now,
  };
  return reservation.adjustmentId === undefined
    ? { type: 'ReleaseQuota', ...given }
    : { type: 'RevertQuotaAdjustment', ...given, adjustmentId: reservation.adjustmentId };
};

/**
 * The share's decider for a request that holds `reservationId`: once that reservation expired
 * the request is refused (409) and records nothing; until then it is decided as usual.
 */
export const requestHolding = (
  reservationId: string,
): Decider<ShareState, ShareCommand, ShareEvent> => ({
  ...shareDecider,
  decide: (command, state) => {
    if (state.expiredReservations?.includes(reservationId)) {
      throw conflict(
        'The quota reserved for this request expired before the request was recorded: nothing ' +
          'was created and nothing is counted. Send the request again.',
      );
    }
    return shareDecider.decide(command, state);
  },
});
