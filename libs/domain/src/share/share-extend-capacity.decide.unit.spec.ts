import { deciderSpec } from '../test-support/decider-spec.js';
import { shareDecider } from './share.decide.js';
import type { ShareEvent } from './share.events.js';
import { activeShareAfter, availableShare, HOST, later } from './test-support/share-history.js';

const spec = deciderSpec(shareDecider);
const awaiting: ShareEvent = {
  type: 'ShareResizeRequested',
  data: {
    direction: 'extend',
    instanceIds: ['i1'],
    newSize: 5,
    awaitsCapacityCheck: true,
    requestedAt: later,
  },
};
const confirmed: ShareEvent = {
  type: 'ShareExtendCapacityConfirmed',
  data: { instanceIds: ['i1'], host: HOST, sizeDeltaGiB: 3, confirmedAt: later },
};
const detail = { lastFilter: 'CapacityFilter' };
const refused: ShareEvent = {
  type: 'ShareExtendRefused',
  data: { instanceIds: ['i1'], message: 'No valid host', detail, refusedAt: later },
};
const confirm = {
  type: 'ConfirmShareExtendCapacity' as const,
  host: HOST,
  sizeDeltaGiB: 3,
  now: later,
};
const refuse = {
  type: 'RefuseShareExtend' as const,
  message: 'No valid host',
  detail,
  now: later,
};
const extendClaimed: ShareEvent = {
  type: 'ShareDriverOperationStarted',
  data: {
    instanceId: 'i1',
    operation: 'extend_share',
    commandId: 'c-ext',
    host: HOST,
    startedAt: later,
  },
};
const claimExtend = {
  type: 'StartDriverOperation' as const,
  instanceId: 'i1',
  operation: 'extend_share' as const,
  commandId: 'c-ext',
  host: HOST,
  now: later,
};

describe('share decider: the scheduler capacity check of a non-forced extend', () => {
  it('records that a non-forced extend awaits the check', () =>
    spec
      .given(availableShare())
      .when({
        type: 'ResizeShare',
        direction: 'extend',
        newSize: 5,
        capacityCheck: true,
        now: later,
      })
      .then([awaiting]));

  it('never makes a shrink wait for the scheduler', () =>
    spec
      .given(availableShare())
      .when({
        type: 'ResizeShare',
        direction: 'shrink',
        newSize: 1,
        capacityCheck: true,
        now: later,
      })
      .then([
        {
          type: 'ShareResizeRequested',
          data: { direction: 'shrink', instanceIds: ['i1'], newSize: 1, requestedAt: later },
        },
      ]));

  it('lets no node claim the extend before the check is confirmed', () =>
    spec
      .given([...availableShare(), awaiting])
      .when(claimExtend)
      .thenNothing());

  it('confirms the check once; the node may then claim the extend', () => {
    spec
      .given([...availableShare(), awaiting])
      .when(confirm)
      .then([confirmed]);
    spec
      .given([...availableShare(), awaiting, confirmed])
      .when(confirm)
      .thenNothing();
    spec
      .given([...availableShare(), awaiting, confirmed])
      .when(claimExtend)
      .then([extendClaimed]);
  });

  it('refuses the extend: the share is available again with its old size', () => {
    spec
      .given([...availableShare(), awaiting])
      .when(refuse)
      .then([refused]);
    const state = activeShareAfter([...availableShare(), awaiting, refused]);
    expect([state.instances[0]?.status, state.size, state.pendingResize]).toEqual([
      'available',
      2,
      null,
    ]);
  });

  it('neither confirms nor refuses an extend that needs no check, or one already decided', () => {
    const unchecked: ShareEvent = {
      type: 'ShareResizeRequested',
      data: { direction: 'extend', instanceIds: ['i1'], newSize: 5, requestedAt: later },
    };
    spec
      .given([...availableShare(), unchecked])
      .when(confirm)
      .thenNothing();
    spec
      .given([...availableShare(), unchecked])
      .when(refuse)
      .thenNothing();
    spec
      .given([...availableShare(), awaiting, confirmed])
      .when(refuse)
      .thenNothing();
    spec
      .given([...availableShare(), awaiting, refused])
      .when(confirm)
      .thenNothing();
    spec.given(availableShare()).when(refuse).thenNothing();
  });

  it('replays an extend requested before the check existed as one the node may claim', () =>
    spec
      .given([
        ...availableShare(),
        {
          type: 'ShareResizeRequested',
          data: { direction: 'extend', instanceIds: ['i1'], newSize: 5, requestedAt: later },
        },
      ])
      .when(claimExtend)
      .then([extendClaimed]));
});
