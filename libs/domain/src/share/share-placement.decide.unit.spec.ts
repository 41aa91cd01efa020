import { deciderSpec } from '../test-support/decider-spec.js';
import { shareDecider } from './share.decide.js';
import type { ShareEvent } from './share.events.js';
import {
  activeShareAfter,
  claimed,
  HOST,
  later,
  now,
  scheduled,
  shareRequested,
} from './test-support/share-history.js';

const spec = deciderSpec(shareDecider);
const OTHER = 'node2@b2#p2';

const reject = (host: string) => ({
  type: 'RejectSharePlacement' as const,
  instanceId: 'i1',
  host,
  message: 'no room',
  now: later,
});
const rejected = (host: string, attemptedHosts: string[]): ShareEvent => ({
  type: 'SharePlacementRejected',
  data: { instanceId: 'i1', host, message: 'no room', attemptedHosts, rejectedAt: later },
});
const scheduledOn = (host: string): ShareEvent => ({
  type: 'ShareScheduled',
  data: { instanceId: 'i1', host, availabilityZone: 'az-2', size: 2, scheduledAt: later },
});

describe('share decider: a node refuses a placement', () => {
  it('hands back a placement that no driver operation has claimed', () =>
    spec
      .given([shareRequested(), scheduled])
      .when(reject(HOST))
      .then([rejected(HOST, [HOST])]));

  it('unplaces the instance, back in the requested zone, still creating', () => {
    const state = activeShareAfter([shareRequested(), scheduled, rejected(HOST, [HOST])]);
    expect(state.instances[0]).toMatchObject({
      host: '',
      availabilityZone: null,
      status: 'creating',
      attemptedHosts: [HOST],
    });
  });

  it('lets the scheduler place it again, and lists every pool that refused it', () => {
    const history = [shareRequested(), scheduled, rejected(HOST, [HOST])];
    spec
      .given(history)
      .when({
        type: 'ScheduleShareInstance',
        instanceId: 'i1',
        host: OTHER,
        availabilityZone: 'az-2',
        now: later,
      })
      .then([scheduledOn(OTHER)]);
    spec
      .given([...history, scheduledOn(OTHER)])
      .when(reject(OTHER))
      .then([rejected(OTHER, [HOST, OTHER])]);
  });

  it('decides nothing once the node has claimed the creation', () =>
    spec
      .given([shareRequested(), scheduled, claimed('create_share', 'c-create')])
      .when(reject(HOST))
      .thenNothing());

  it('decides nothing for another pool, a replay, or an instance no longer creating', () => {
    spec.given([shareRequested(), scheduled]).when(reject(OTHER)).thenNothing();
    spec
      .given([shareRequested(), scheduled, rejected(HOST, [HOST])])
      .when(reject(HOST))
      .thenNothing();
    spec
      .given([
        shareRequested(),
        scheduled,
        { type: 'ShareStatusReset', data: { instanceId: 'i1', status: 'error', resetAt: now } },
      ])
      .when(reject(HOST))
      .thenNothing();
  });

  it('deletes a refused instance at once: it holds nothing on any back end', () => {
    const state = activeShareAfter([shareRequested(), scheduled, rejected(HOST, [HOST])]);
    expect(shareDecider.decide({ type: 'DeleteShare', force: true, now: later }, state)).toEqual([
      {
        type: 'ShareDeletionRequested',
        data: { instanceIds: ['i1'], force: true, requestedAt: later },
      },
      {
        type: 'ShareInstanceDeleted',
        data: { instanceId: 'i1', commandId: null, deletedAt: later },
      },
      { type: 'ShareDeleted', data: { shareId: 's1', deletedAt: later } },
    ]);
  });
});
