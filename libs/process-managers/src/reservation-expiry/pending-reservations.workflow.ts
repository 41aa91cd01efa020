import {
  claimedReservationOf,
  givenBackReservationOf,
  pendingReservationOf,
  QUOTA_STREAM_PREFIX,
  SHARE_STREAM_PREFIX,
  type PendingReservation,
  type QuotaEvent,
  type ShareEvent,
} from '#hawser/domain';
import type { Decoded } from '#hawser/eventstore';
import type { Workflow } from '../runtime/workflow.js';

/** An event of either stream category the index follows, decoded by its category. */
export type PendingReservationsInput =
  | { readonly category: 'share'; readonly event: Decoded<ShareEvent> }
  | { readonly category: 'quota'; readonly event: Decoded<QuotaEvent> };

export type PendingReservationsOutput =
  | { readonly type: 'IndexReservation'; readonly reservation: PendingReservation }
  | { readonly type: 'UnindexReservation'; readonly reservationId: string };

/**
 * Keeps the index of pending reservations the expiry walks: a request's reservation enters it
 * (QuotaReserved or QuotaAdjusted naming the request's share), and leaves it once the share's
 * stream records the request or the quota gives the reservation back. It keeps no state of its
 * own: each event alone says what changes, and the index writes are puts and deletes by id, so
 * handling an event again after a crash changes nothing. The index only says where to look: the
 * share's stream decides whether a reservation is claimed.
 */
export const pendingReservationsWorkflow: Workflow<
  PendingReservationsInput,
  null,
  PendingReservationsOutput
> = {
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
  initialState: () => null,
  evolve: () => null,
  readsHistory: () => false,
  decide: (input) => {
    if (input.category === 'share') {
      const { event } = input;
      return unindex(claimedReservationOf({ ...event, commandId: event.metadata.commandId }));
    }
    const reservation = pendingReservationOf(input.event);
    if (reservation !== undefined) return [{ type: 'IndexReservation', reservation }];
    return unindex(givenBackReservationOf(input.event));
  },
};

const unindex = (reservationId: string | undefined): PendingReservationsOutput[] =>
  reservationId === undefined ? [] : [{ type: 'UnindexReservation', reservationId }];
