import { deciderSpec } from '../test-support/decider-spec.js';
import { shareDecider } from './share.decide.js';
import type { ShareEvent } from './share.events.js';
import {
  activeShareAfter,
  availableShare,
  later,
  replicaPlacementRejected,
  replicaRequested,
  replicaScheduledOn,
} from './test-support/share-history.js';

const spec = deciderSpec(shareDecider);
const B_HOST = 'node2@b2#p1';
const C_HOST = 'node3@b3#p1';

const reject = (host: string) => ({
  type: 'RejectReplicaPlacement' as const,
  replicaId: 'r1',
  host,
  message: 'no room',
  now: later,
});

/** A readable share, available, with replica r1 scheduled onto pool B. */
const placedReplica = (onlyHost?: string): ShareEvent[] => [
  ...availableShare({ replication_type: 'readable' }),
  replicaRequested(onlyHost),
  replicaScheduledOn(B_HOST),
];
const replicaAfter = (events: ShareEvent[]) =>
  activeShareAfter(events).instances.find((i) => i.id === 'r1');

describe('share decider: a node refuses a replica placement', () => {
  it('hands back a replica no driver operation has claimed', () =>
    spec
      .given(placedReplica())
      .when(reject(B_HOST))
      .then([replicaPlacementRejected(B_HOST, [B_HOST])]));

  it('unplaces the replica, back in the zone it was requested in, still creating and out_of_sync', () => {
    expect(
      replicaAfter([...placedReplica(), replicaPlacementRejected(B_HOST, [B_HOST])]),
    ).toMatchObject({
      host: '',
      availabilityZone: null,
      status: 'creating',
      replicaState: 'out_of_sync',
      attemptedHosts: [B_HOST],
      replicaRequest: { availabilityZone: null },
    });
  });

  it("keeps an admin's only_host for the next placement", () =>
    expect(
      replicaAfter([...placedReplica(B_HOST), replicaPlacementRejected(B_HOST, [B_HOST])])
        ?.replicaRequest,
    ).toEqual({ availabilityZone: null, onlyHost: B_HOST }));

  it('lets the scheduler place it again, and lists every pool that refused it', () => {
    const history = [...placedReplica(), replicaPlacementRejected(B_HOST, [B_HOST])];
    spec
      .given(history)
      .when({
        type: 'ScheduleReplica',
        replicaId: 'r1',
        host: C_HOST,
        availabilityZone: 'az-2',
        now: later,
      })
      .then([replicaScheduledOn(C_HOST)]);
    spec
      .given([...history, replicaScheduledOn(C_HOST)])
      .when(reject(C_HOST))
      .then([replicaPlacementRejected(C_HOST, [B_HOST, C_HOST])]);
  });

  it('lets the scheduler fail it after the last refusal: error/error, as Manila', () => {
    const history = [...placedReplica(), replicaPlacementRejected(B_HOST, [B_HOST])];
    const failed: ShareEvent = {
      type: 'ReplicaSchedulingFailed',
      data: { replicaId: 'r1', message: 'exceeded', detail: {}, failedAt: later },
    };
    spec
      .given(history)
      .when({
        type: 'FailReplicaScheduling',
        replicaId: 'r1',
        message: 'exceeded',
        detail: {},
        now: later,
      })
      .then([failed]);
    expect(replicaAfter([...history, failed])).toMatchObject({
      status: 'error',
      replicaState: 'error',
    });
  });

  it('decides nothing once the node has claimed the creation', () =>
    spec
      .given([
        ...placedReplica(),
        {
          type: 'ShareDriverOperationStarted',
          data: {
            instanceId: 'r1',
            operation: 'create_replica',
            commandId: 'c-create-r1',
            host: B_HOST,
            startedAt: later,
          },
        },
      ])
      .when(reject(B_HOST))
      .thenNothing());

  it('decides nothing for another pool, a replay, a deleted replica or an unknown one', () => {
    spec.given(placedReplica()).when(reject(C_HOST)).thenNothing();
    spec
      .given([...placedReplica(), replicaPlacementRejected(B_HOST, [B_HOST])])
      .when(reject(B_HOST))
      .thenNothing();
    spec
      .given([
        ...placedReplica(),
        {
          type: 'ReplicaDeletionRequested',
          data: { replicaId: 'r1', force: false, requestedAt: later },
        },
      ])
      .when(reject(B_HOST))
      .thenNothing();
    spec
      .given(placedReplica())
      .when({ ...reject(B_HOST), replicaId: 'r9' })
      .thenNothing();
  });

  it('deletes a refused replica at once: it holds nothing on any back end', () => {
    const state = activeShareAfter([
      ...placedReplica(),
      replicaPlacementRejected(B_HOST, [B_HOST]),
    ]);
    const events = shareDecider.decide(
      { type: 'DeleteReplica', replicaId: 'r1', force: false, now: later },
      state,
    );
    expect(events.map((e) => e.type)).toEqual(['ReplicaDeletionRequested', 'ReplicaDeleted']);
  });
});
