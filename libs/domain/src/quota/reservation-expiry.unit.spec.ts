import type { ShareEvent } from '../share/share.events.js';
import { replicaRequested, snapshotRequested } from '../share/test-support/replica-history.js';
import { availableShare, later, now, shareRequested } from '../share/test-support/share-history.js';
import { deciderSpec } from '../test-support/decider-spec.js';
import type { QuotaEvent } from './quota.events.js';
import {
  decideReservationExpiry,
  pendingReservationOf,
  givenBackReservationOf,
  releaseOfExpired,
  requestHolding,
  reservationFate,
  type RecordedShareEvent,
} from './reservation-expiry.js';

const recorded = (event: ShareEvent, commandId = 'c-other'): RecordedShareEvent => ({
  ...event,
  commandId,
});
const fence = (reservationId: string): ShareEvent => ({
  type: 'ReservationExpired',
  data: { reservationId, expiredAt: later },
});
const expire = (reservationId: string) => ({
  type: 'ExpireReservation' as const,
  reservationId,
  now: later,
});
const extendRequested: ShareEvent = {
  type: 'ShareResizeRequested',
  data: { direction: 'extend', instanceIds: ['i1'], newSize: 5, requestedAt: later },
};
const history = availableShare().map((event) => recorded(event));

describe('reservation expiry: the fence on the share stream', () => {
  describe('given a reservation whose request is not recorded', () => {
    it('when it expires, then the share stream is fenced for that reservation', () =>
      expect(decideReservationExpiry(expire('snap1'), history)).toEqual([fence('snap1')]));

    it('when it expires on a share that does not exist yet, then the new stream holds the fence', () =>
      expect(decideReservationExpiry(expire('s1'), [])).toEqual([fence('s1')]));
  });

  describe('given the request was recorded first', () => {
    it.each([
      ['a share', 's1', []],
      [
        'a snapshot',
        'snap1',
        [recorded(snapshotRequested('snap1', [{ id: 'si1', shareInstanceId: 'i1' }]))],
      ],
      ['a replica', 'r1', [recorded(replicaRequested('r1'))]],
      ['an extend, by its command id', 'c-extend', [recorded(extendRequested, 'c-extend')]],
    ])('when %s expires, then nothing is fenced: the reservation is claimed', (_, id, more) => {
      const withRequest = [...history, ...more];
      expect(reservationFate(withRequest, id)).toBe('claimed');
      expect(decideReservationExpiry(expire(id), withRequest)).toEqual([]);
    });

    it('when another extend of the share was recorded, then this one is still open', () =>
      expect(reservationFate([...history, recorded(extendRequested, 'c-other')], 'c-extend')).toBe(
        'open',
      ));
  });

  describe('given the fence is there already', () => {
    it('when the expiry runs again (a replay), then nothing more is appended', () => {
      const fenced = [...history, recorded(fence('snap1'))];
      expect(reservationFate(fenced, 'snap1')).toBe('expired');
      expect(decideReservationExpiry(expire('snap1'), fenced)).toEqual([]);
    });
  });
});

describe('reservation expiry: a request meets its fence', () => {
  const snapshotRequest = {
    type: 'RequestSnapshot' as const,
    snapshotId: 'snap1',
    projectId: 'p1',
    userId: 'u1',
    name: null,
    description: null,
    now: later,
  };

  it('given its reservation expired, when the snapshot request comes late, then it is refused', () =>
    deciderSpec(requestHolding('snap1'))
      .given([...availableShare(), fence('snap1')])
      .when(snapshotRequest)
      .thenThrows('conflict', /expired/));

  it('given a fenced new share, when the share request comes late, then it is refused', () => {
    const { type: _type, ...data } = shareRequested().data as Record<string, unknown>;
    deciderSpec(requestHolding('s1'))
      .given([fence('s1')])
      .when({ type: 'RequestShare', ...data } as never)
      .thenThrows('conflict', /expired/);
  });

  it('given a fenced extend, when the extend comes late, then it is refused', () =>
    deciderSpec(requestHolding('c-extend'))
      .given([...availableShare(), fence('c-extend')])
      .when({ type: 'ResizeShare', direction: 'extend', newSize: 5, now: later })
      .thenThrows('conflict', /expired/));

  it("given another request's fence, when this request comes, then it is decided as usual", () =>
    deciderSpec(requestHolding('snap2'))
      .given([...availableShare(), fence('snap1')])
      .when({ ...snapshotRequest, snapshotId: 'snap2' })
      .then([
        snapshotRequested('snap2', [{ id: expect.any(String) as string, shareInstanceId: 'i1' }]),
      ]));
});

describe('reservation expiry: which reservations wait for a request', () => {
  const reserved = (requestShareId?: string): QuotaEvent => ({
    type: 'QuotaReserved',
    data: {
      projectId: 'p1',
      holderId: 'r1',
      userId: 'alice',
      shareTypeId: 'gold',
      holderKind: 'share_replica',
      deltas: { share_replicas: 1, replica_gigabytes: 2 },
      ...(requestShareId !== undefined && { requestShareId }),
      reservedAt: now,
    },
  });
  const adjusted = (requestShareId?: string): QuotaEvent => ({
    type: 'QuotaAdjusted',
    data: {
      projectId: 'p1',
      holderId: 's1',
      adjustmentId: 'c-extend',
      deltas: { gigabytes: 3 },
      ...(requestShareId !== undefined && { requestShareId }),
      adjustedAt: now,
    },
  });

  it("given a request's reservation, then it waits on the request's share and is released whole, for its user and type", () => {
    const pending = pendingReservationOf(reserved('s1'));
    expect(pending).toEqual({
      reservationId: 'r1',
      projectId: 'p1',
      userId: 'alice',
      shareTypeId: 'gold',
      shareId: 's1',
      holderId: 'r1',
      deltas: { share_replicas: 1, replica_gigabytes: 2 },
      reservedAt: now,
    });
    expect(releaseOfExpired(pending!, later)).toEqual({
      type: 'ReleaseQuota',
      projectId: 'p1',
      userId: 'alice',
      shareTypeId: 'gold',
      holderId: 'r1',
      deltas: { share_replicas: 1, replica_gigabytes: 2 },
      now: later,
    });
  });

  it("given an extend's adjustment, then it waits under its command id and is reverted", () => {
    const pending = pendingReservationOf(adjusted('s1'));
    expect(pending?.reservationId).toBe('c-extend');
    expect(releaseOfExpired(pending!, later)).toEqual({
      type: 'RevertQuotaAdjustment',
      projectId: 'p1',
      holderId: 's1',
      adjustmentId: 'c-extend',
      deltas: { gigabytes: 3 },
      now: later,
    });
  });

  it('given reservations made by process managers or before requests named a share, then none waits', () => {
    expect(pendingReservationOf(reserved())).toBeUndefined();
    expect(pendingReservationOf(adjusted())).toBeUndefined();
  });

  it('given a release or a revert, then it gives back the reservation it names', () => {
    expect(
      givenBackReservationOf({
        type: 'QuotaReleased',
        data: { projectId: 'p1', holderId: 'r1', deltas: {}, releasedAt: later },
      }),
    ).toBe('r1');
    expect(
      givenBackReservationOf({
        type: 'QuotaAdjustmentReverted',
        data: {
          projectId: 'p1',
          holderId: 's1',
          adjustmentId: 'c-extend',
          deltas: {},
          revertedAt: later,
        },
      }),
    ).toBe('c-extend');
  });
});
