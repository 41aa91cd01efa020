import { derivedId, type ShareEvent } from '#hawser/domain';
import {
  availableShare,
  HOST,
  later,
  now,
  scheduled,
  shareRequested,
} from '../../../domain/src/share/test-support/share-history.js';
import { recordedShareEvent, workflowSpec } from '../test-support/workflow-spec.js';
import {
  extendCheckOutcome,
  placementOutcome,
  shareSchedulingWorkflow,
  type ShareSchedulingOutput,
} from './share-scheduling.workflow.js';

const spec = workflowSpec(shareSchedulingWorkflow);
const recorded = (event: ShareEvent, revision = 0) => recordedShareEvent('s1', revision, event);
const A = 'aaaaaaaa-0000-4000-8000-000000000000';

const request = shareRequested();
if (request.type !== 'ShareRequested') throw new Error('shareRequested() is a ShareRequested');
const requestData = request.data;
const requestedWith = (more: Partial<typeof requestData>): ShareEvent => ({
  type: 'ShareRequested',
  data: { ...requestData, ...more },
});
/** The check of an extend of the available share s1 from 2 to 5 GiB. */
const checkExtend: Extract<ShareSchedulingOutput, { type: 'CheckExtendCapacity' }> = {
  type: 'CheckExtendCapacity',
  check: {
    shareId: 's1',
    instanceId: 'i1',
    host: HOST,
    size: 2,
    shareProto: 'NFS',
    shareType: requestData.shareType,
  },
  sizeDeltaGiB: 3,
};
const extendRequested = (awaitsCapacityCheck: boolean): ShareEvent => ({
  type: 'ShareResizeRequested',
  data: {
    direction: 'extend',
    instanceIds: ['i1'],
    newSize: 5,
    ...(awaitsCapacityCheck && { awaitsCapacityCheck: true as const }),
    requestedAt: later,
  },
});

describe('share scheduling workflow', () => {
  it('given nothing, when a share is requested, then the scheduler is asked to place its instance with no pool excluded', () => {
    spec
      .given()
      .when(recorded(request))
      .then([
        { type: 'PlaceShareInstance', request: requestData, attemptedHosts: [], hints: null },
      ]);
  });

  it("when a share is requested without hints, then the hints its metadata lists are the placement's", () => {
    const metadata = { __affinity_different_host: A };
    spec
      .given()
      .when(recorded(requestedWith({ metadata })))
      .then([
        expect.objectContaining({
          type: 'PlaceShareInstance',
          hints: { differentHost: [A] },
        }),
      ]);
  });

  it('when a share from a snapshot kept on its source pool is requested, then there is nothing to place', () => {
    const snapshotSource = {
      snapshotId: 'snap1',
      snapshotInstanceId: 'si1',
      shareId: 's0',
      shareInstanceId: 'i0',
      host: HOST,
      availabilityZone: null,
      size: 2,
      placement: 'source-pool' as const,
    };
    spec
      .given()
      .when(recorded(requestedWith({ snapshotSource })))
      .then([]);
  });

  it('given a requested share, when its node refuses the placement, then it is placed again without the pools that refused it', () => {
    const rejected: ShareEvent = {
      type: 'SharePlacementRejected',
      data: {
        instanceId: 'i1',
        host: HOST,
        message: 'no room',
        attemptedHosts: [HOST],
        rejectedAt: later,
      },
    };
    spec
      .given(request, scheduled)
      .when(recorded(rejected, 2))
      .then([
        { type: 'PlaceShareInstance', request: requestData, attemptedHosts: [HOST], hints: null },
      ]);
  });

  it('given a requested share, when a refusal names another instance, then nothing is placed', () => {
    const rejected: ShareEvent = {
      type: 'SharePlacementRejected',
      data: {
        instanceId: 'other',
        host: HOST,
        message: 'no room',
        attemptedHosts: [HOST],
        rejectedAt: later,
      },
    };
    spec.given(request).when(recorded(rejected, 1)).then([]);
  });

  it('when a share is scheduled, then its pool is debited once for the instance, at the placement time', () => {
    spec
      .given()
      .when(recorded(scheduled, 1))
      .then([
        {
          type: 'ConsumePoolCapacity',
          host: HOST,
          key: 'i1',
          sizeGiB: 2,
          placedAt: Date.parse(now),
        },
      ]);
  });

  it("when an extend's capacity is confirmed, then the pool is debited the delta once per confirmation", () => {
    const confirmed = recorded(
      {
        type: 'ShareExtendCapacityConfirmed',
        data: { instanceIds: ['i1'], host: HOST, sizeDeltaGiB: 3, confirmedAt: later },
      },
      5,
    );
    spec
      .given()
      .when(confirmed)
      .then([
        {
          type: 'ConsumePoolCapacity',
          host: HOST,
          key: derivedId(confirmed.id, 'extend'),
          sizeGiB: 3,
          placedAt: Date.parse(later),
        },
      ]);
  });

  it("given an available share, when a non-forced extend is requested, then its pool is checked at the share's current size", () => {
    const extend = extendRequested(true);
    spec
      .given(...availableShare(), extend)
      .when(recorded(extend, 4))
      .then([checkExtend]);
  });

  it('given an available share, when a forced extend is requested, then no check is asked and no history read', () => {
    const extend = recorded(extendRequested(false), 4);
    expect(shareSchedulingWorkflow.readsHistory(extend)).toBe(false);
    spec
      .given(...availableShare(), extendRequested(false))
      .when(extend)
      .then([]);
  });

  it('given a checked extend already settled (a replay), when its request is handled again, then nothing is checked', () => {
    const refused: ShareEvent = {
      type: 'ShareExtendRefused',
      data: { instanceIds: ['i1'], message: 'no room', detail: {}, refusedAt: later },
    };
    spec
      .given(...availableShare(), extendRequested(true), refused)
      .when(recorded(extendRequested(true), 4))
      .then([]);
  });

  it("turns the scheduler's answers into the share commands that record them", () => {
    expect(
      placementOutcome('i1', { placed: true, host: HOST, availabilityZone: 'az-1' }, now),
    ).toEqual({
      type: 'ScheduleShareInstance',
      instanceId: 'i1',
      host: HOST,
      availabilityZone: 'az-1',
      now,
    });
    expect(
      placementOutcome('i1', { placed: false, message: 'No valid host', detail: {} }, now),
    ).toEqual({
      type: 'FailShareInstanceScheduling',
      instanceId: 'i1',
      message: 'No valid host',
      detail: {},
      now,
    });
    expect(extendCheckOutcome(checkExtend, { passes: true }, now)).toEqual({
      type: 'ConfirmShareExtendCapacity',
      host: HOST,
      sizeDeltaGiB: 3,
      now,
    });
    expect(
      extendCheckOutcome(
        checkExtend,
        { passes: false, message: 'full', detail: { lastFilter: 'x' } },
        now,
      ),
    ).toEqual({
      type: 'RefuseShareExtend',
      message: 'full',
      detail: { lastFilter: 'x' },
      now,
    });
  });
});
