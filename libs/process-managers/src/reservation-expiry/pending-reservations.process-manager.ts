import {
  claimedReservationOf,
  givenBackReservationOf,
  pendingReservationOf,
  QUOTA_STREAM_PREFIX,
  SHARE_STREAM_PREFIX,
  type PendingReservation,
} from '#hawser/domain';
import type { RecordedEvent } from '#hawser/eventstore';
import type { DocumentStore } from '#hawser/read-models';
import { quotaEvents, shareEvents } from '../../../../eventstore/decoders.js';
import type { ProcessManager } from '../runtime/process-manager.js';

/** Reservations counted for a user's request that no recorded request has claimed yet. */
export const PENDING_RESERVATIONS = 'pending_reservations';

export interface PendingReservationDocument extends PendingReservation {
  /** The reservation id. */
  readonly id: string;
}

/**
 * Keeps the index of pending reservations the expiry walks: a request's reservation enters it
 * (QuotaReserved or QuotaAdjusted naming the request's share), and leaves it once the share's
 * stream records the request or the quota gives the reservation back. Puts and deletes by id, so
 * handling an event again after a crash changes nothing. The index only says where to look: the
 * share's stream decides whether a reservation is claimed.
 */
export const pendingReservationsProcessManager = (documents: DocumentStore): ProcessManager => ({
  name: 'pending-reservations',
  filter: {
    streamPrefixes: [QUOTA_STREAM_PREFIX, SHARE_STREAM_PREFIX],
    eventTypes: [
      'QuotaReserved',
      'QuotaAdjusted',
      'QuotaReleased',
      'QuotaAdjustmentReverted',
      'ShareRequested',
      'SnapshotRequested',
      'ReplicaRequested',
      'ShareResizeRequested',
    ],
  },
  async handle(recorded: RecordedEvent): Promise<void> {
    if (recorded.streamId.startsWith(SHARE_STREAM_PREFIX)) {
      const event = shareEvents.decode(recorded);
      const claimed = claimedReservationOf({ ...event, commandId: event.metadata.commandId });
      if (claimed !== undefined) {
        await documents.write([{ kind: 'delete', collection: PENDING_RESERVATIONS, id: claimed }]);
      }
      return;
    }
    const quotaEvent = quotaEvents.decode(recorded);
    const pending = pendingReservationOf(quotaEvent);
    if (pending !== undefined) {
      const document: PendingReservationDocument = { id: pending.reservationId, ...pending };
      await documents.write([{ kind: 'put', collection: PENDING_RESERVATIONS, document }]);
      return;
    }
    const givenBack = givenBackReservationOf(quotaEvent);
    if (givenBack !== undefined) {
      await documents.write([{ kind: 'delete', collection: PENDING_RESERVATIONS, id: givenBack }]);
    }
  },
});
