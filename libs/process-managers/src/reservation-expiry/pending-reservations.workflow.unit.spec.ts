import type { QuotaEvent, ShareEvent } from '#hawser/domain';
import {
  later,
  now,
  shareRequested,
} from '../../../domain/src/share/test-support/share-history.js';
import {
  recordedQuotaEvent,
  recordedShareEvent,
  workflowSpec,
} from '../test-support/workflow-spec.js';
import { pendingReservationsWorkflow } from './pending-reservations.workflow.js';

const spec = workflowSpec(pendingReservationsWorkflow);
const quota = (event: QuotaEvent) =>
  ({ category: 'quota', event: recordedQuotaEvent('p1', 3, event) }) as const;
const share = (event: ShareEvent, commandId?: string) =>
  ({
    category: 'share',
    event: recordedShareEvent('s1', 0, event, commandId === undefined ? {} : { commandId }),
  }) as const;

const reserved = (requestShareId?: string): QuotaEvent => ({
  type: 'QuotaReserved',
  data: {
    projectId: 'p1',
    holderId: 's1',
    holderKind: 'share',
    deltas: { shares: 1, gigabytes: 2 },
    ...(requestShareId !== undefined && { requestShareId }),
    reservedAt: now,
  },
});
const adjusted: QuotaEvent = {
  type: 'QuotaAdjusted',
  data: {
    projectId: 'p1',
    holderId: 's1',
    adjustmentId: 'c-extend',
    deltas: { gigabytes: 3 },
    requestShareId: 's1',
    adjustedAt: later,
  },
};

describe('pending reservations workflow', () => {
  it("when a user's request reserves quota, then the reservation enters the index", () => {
    spec
      .given()
      .when(quota(reserved('s1')))
      .then([
        {
          type: 'IndexReservation',
          reservation: {
            reservationId: 's1',
            projectId: 'p1',
            shareId: 's1',
            holderId: 's1',
            deltas: { shares: 1, gigabytes: 2 },
            reservedAt: now,
          },
        },
      ]);
  });

  it("when a user's extend adjusts the quota, then the adjustment enters the index under its id", () => {
    spec
      .given()
      .when(quota(adjusted))
      .then([
        {
          type: 'IndexReservation',
          reservation: {
            reservationId: 'c-extend',
            projectId: 'p1',
            shareId: 's1',
            holderId: 's1',
            adjustmentId: 'c-extend',
            deltas: { gigabytes: 3 },
            reservedAt: later,
          },
        },
      ]);
  });

  it('when a reservation made by no request (an older event) is recorded, then the index is left alone', () => {
    spec.given().when(quota(reserved())).then([]);
  });

  it("when the share's stream records the request, then its reservation leaves the index", () => {
    spec
      .given()
      .when(share(shareRequested()))
      .then([{ type: 'UnindexReservation', reservationId: 's1' }]);
  });

  it("when an extend's request is recorded, then the reservation named by its command id leaves the index", () => {
    const extend: ShareEvent = {
      type: 'ShareResizeRequested',
      data: { direction: 'extend', instanceIds: ['i1'], newSize: 5, requestedAt: later },
    };
    spec
      .given()
      .when(share(extend, 'c-extend'))
      .then([{ type: 'UnindexReservation', reservationId: 'c-extend' }]);
  });

  it('when the quota gives a holder or an adjustment back, then its reservation leaves the index', () => {
    spec
      .given()
      .when(
        quota({
          type: 'QuotaReleased',
          data: { projectId: 'p1', holderId: 's1', deltas: {}, releasedAt: later },
        }),
      )
      .then([{ type: 'UnindexReservation', reservationId: 's1' }]);
    spec
      .given()
      .when(
        quota({
          type: 'QuotaAdjustmentReverted',
          data: {
            projectId: 'p1',
            holderId: 's1',
            adjustmentId: 'c-extend',
            deltas: { gigabytes: -3 },
            revertedAt: later,
          },
        }),
      )
      .then([{ type: 'UnindexReservation', reservationId: 'c-extend' }]);
  });
});
