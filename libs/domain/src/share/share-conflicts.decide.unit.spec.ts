import { deciderSpec } from '../test-support/decider-spec.js';
import { shareDecider } from './share.decide.js';
import type { ShareEvent } from './share.events.js';
import {
  claimedOn,
  R_HOST,
  replicaCreated,
  replicaRequested,
  replicaScheduled,
  snapshotRequested,
  withReplica,
} from './test-support/replica-history.js';
import { activeShareAfter, availableShare, claimed, later } from './test-support/share-history.js';

/*
 * Two requests on one share that would undo or miss each other: the second is refused up
 * front, or the first one's outcome leaves the second's effect in place.
 */
const spec = deciderSpec(shareDecider);
const replicated = () => availableShare({ replication_type: 'readable' });
/** A readable share whose replica r1 is still being built. */
const replicaBeingCreated = (): ShareEvent[] => [...replicated(), replicaRequested()];
const promoting = (): ShareEvent[] => [
  ...withReplica(),
  { type: 'ReplicaPromotionRequested', data: { replicaId: 'r1', requestedAt: later } },
];
const resizeRequested = (instanceIds: string[], newSize = 3): ShareEvent => ({
  type: 'ShareResizeRequested',
  data: { direction: 'extend', instanceIds, newSize, requestedAt: later },
});
const resized = (instanceId: string, commandId: string): ShareEvent => ({
  type: 'ShareInstanceResized',
  data: { instanceId, commandId, newSize: 3, resizedAt: later },
});
const resizeFailed = (instanceId: string, commandId: string): ShareEvent => ({
  type: 'ShareInstanceResizeFailed',
  data: { instanceId, commandId, message: 'no room', possibleDataLoss: false, failedAt: later },
});
const extend = { type: 'ResizeShare', direction: 'extend', newSize: 3, now: later } as const;
const shrink = { type: 'ResizeShare', direction: 'shrink', newSize: 1, now: later } as const;
const deleteReplica = (force: boolean) =>
  ({ type: 'DeleteReplica', replicaId: 'r1', force, now: later }) as const;
const statusesAfter = (events: ShareEvent[]) =>
  Object.fromEntries(activeShareAfter(events).instances.map((i) => [i.id, i.status]));

describe('share decider: conflicting requests on one share', () => {
  describe('resizing while a replica changes', () => {
    it('given a replica being created, when the share is extended or shrunk, then it is refused', () => {
      spec
        .given(replicaBeingCreated())
        .when(extend)
        .thenThrows('invalid', /r1 is creating/);
      spec
        .given(replicaBeingCreated())
        .when(shrink)
        .thenThrows('invalid', /transitional/);
    });
    it('given a replica being deleted or promoted, when the share is extended, then it is refused', () => {
      const deleting: ShareEvent = {
        type: 'ReplicaDeletionRequested',
        data: { replicaId: 'r1', force: false, requestedAt: later },
      };
      spec
        .given([...withReplica(), deleting])
        .when(extend)
        .thenThrows('invalid', /r1 is deleting/);
      spec
        .given(promoting())
        .when(extend)
        .thenThrows('invalid', /replication_change/);
    });
    it('given settled replicas, when the share is extended, then every placed instance is', () =>
      spec
        .given(withReplica())
        .when(extend)
        .then([resizeRequested(['i1', 'r1'])]));
    it('given a replica whose scheduling failed, when the share is extended, then only placed instances are', () => {
      const unplaced: ShareEvent = {
        type: 'ReplicaSchedulingFailed',
        data: { replicaId: 'r1', message: 'No valid host', detail: {}, failedAt: later },
      };
      spec
        .given([...replicaBeingCreated(), unplaced])
        .when(extend)
        .then([resizeRequested(['i1'])]);
    });
    it('given a share being extended, when a replica is requested, then it is refused', () => {
      const request = {
        type: 'RequestReplica',
        replicaId: 'r2',
        availabilityZone: 'az-2',
        now: later,
      } as const;
      const extending = [...withReplica(), resizeRequested(['i1', 'r1'])];
      spec
        .given(extending)
        .when(request)
        .thenThrows('invalid', /active replica/);
      // The active instance is done, the replica is not: the share is still resizing.
      const halfDone = [
        ...extending,
        claimedOn('i1', 'extend_share', 'c-ext-i1'),
        resized('i1', 'c-ext-i1'),
      ];
      spec
        .given(halfDone)
        .when(request)
        .thenThrows('invalid', /extend is in progress/);
    });
    it('given an extend running on a replica, when that replica is deleted, then it is refused, forced or not', () => {
      const extending = [...withReplica(), resizeRequested(['i1', 'r1'])];
      spec
        .given(extending)
        .when(deleteReplica(false))
        .thenThrows('invalid', /extending/);
      spec
        .given(extending)
        .when(deleteReplica(true))
        .thenThrows('invalid', /resize ends/);
    });
  });

  describe('the share size after a resize of several instances', () => {
    const running = [
      ...withReplica(),
      resizeRequested(['i1', 'r1']),
      claimedOn('i1', 'extend_share', 'c-i1'),
      claimedOn('r1', 'extend_share', 'c-r1'),
    ];
    it('given every instance resized, then the share takes the new size', () =>
      expect(
        activeShareAfter([...running, resized('i1', 'c-i1'), resized('r1', 'c-r1')]).size,
      ).toBe(3));
    it('given one instance failed, then the share keeps its size whichever finished last', () => {
      for (const events of [
        [resizeFailed('i1', 'c-i1'), resized('r1', 'c-r1')],
        [resized('r1', 'c-r1'), resizeFailed('i1', 'c-i1')],
      ]) {
        const state = activeShareAfter([...running, ...events]);
        expect([state.size, state.pendingResize]).toEqual([2, null]);
        expect(state.instances.map((i) => i.status)).toContain('extending_error');
      }
    });
  });

  describe('deleting during a promotion', () => {
    it('given a replica being promoted, when it is deleted, then it is refused, forced or not', () => {
      spec
        .given(promoting())
        .when(deleteReplica(false))
        .thenThrows('invalid', /being promoted/);
      spec
        .given(promoting())
        .when(deleteReplica(true))
        .thenThrows('invalid', /being promoted/);
    });
    it('given a replica being deleted, when it is promoted, then it is refused', () =>
      spec
        .given([
          ...withReplica(),
          {
            type: 'ReplicaDeletionRequested',
            data: { replicaId: 'r1', force: false, requestedAt: later },
          },
        ])
        .when({ type: 'PromoteReplica', replicaId: 'r1', isAdmin: false, now: later })
        .thenThrows('invalid', /must be available/));
    it('given a second replica being deleted, when the promotion fails, then the deletion goes on', () => {
      const second: ShareEvent[] = [
        replicaRequested('r2'),
        replicaScheduled('r2'),
        claimedOn('r2', 'create_replica', 'c-create-r2'),
        replicaCreated('r2'),
        {
          type: 'ReplicaDeletionRequested',
          data: { replicaId: 'r2', force: false, requestedAt: later },
        },
      ];
      const history = [...withReplica(), ...second];
      const failed: ShareEvent = {
        type: 'ReplicaPromotionFailed',
        data: { replicaId: 'r1', commandId: 'c-promote', message: 'boom', failedAt: later },
      };
      const promoted = [
        ...history,
        { type: 'ReplicaPromotionRequested', data: { replicaId: 'r1', requestedAt: later } },
        claimedOn('r1', 'promote_replica', 'c-promote'),
      ] satisfies ShareEvent[];
      expect(statusesAfter([...promoted, failed])).toEqual({
        i1: 'error',
        r1: 'error',
        r2: 'deleting',
      });
      // The node then claims the deletion it was asked for.
      spec
        .given([...promoted, failed])
        .when({
          type: 'StartDriverOperation',
          instanceId: 'r2',
          operation: 'delete_replica',
          commandId: 'c-delete-r2',
          host: R_HOST,
          now: later,
        })
        .then([
          {
            type: 'ShareDriverOperationStarted',
            data: {
              instanceId: 'r2',
              operation: 'delete_replica',
              commandId: 'c-delete-r2',
              host: R_HOST,
              startedAt: later,
            },
          },
        ]);
    });
  });

  describe('a forced deletion during a resize', () => {
    const forced: ShareEvent = {
      type: 'ShareDeletionRequested',
      data: { instanceIds: ['i1'], force: true, requestedAt: later },
    };
    const running = [
      ...availableShare(),
      resizeRequested(['i1']),
      claimed('extend_share', 'c-ext'),
    ];
    it('given an extend running, when it ends either way, then the instance stays deleting', () => {
      expect(statusesAfter([...running, forced, resized('i1', 'c-ext')])).toEqual({
        i1: 'deleting',
      });
      expect(statusesAfter([...running, forced, resizeFailed('i1', 'c-ext')])).toEqual({
        i1: 'deleting',
      });
    });
    it('given an extend refused by the scheduler, then the instance stays deleting', () => {
      const awaiting: ShareEvent = {
        type: 'ShareResizeRequested',
        data: {
          direction: 'extend',
          instanceIds: ['i1'],
          newSize: 3,
          awaitsCapacityCheck: true,
          requestedAt: later,
        },
      };
      const refused: ShareEvent = {
        type: 'ShareExtendRefused',
        data: { instanceIds: ['i1'], message: 'No valid host', detail: {}, refusedAt: later },
      };
      expect(statusesAfter([...availableShare(), awaiting, forced, refused])).toEqual({
        i1: 'deleting',
      });
    });
  });
});

describe('share decider: an admin reset during a resize', () => {
  const reset: ShareEvent = {
    type: 'ShareStatusReset',
    data: { instanceId: 'i1', status: 'available', resetAt: later },
  };
  const requested = [...availableShare(), resizeRequested(['i1'])];
  it('given an extend no node started, when the instance is reset, then the resize ends at the old size', () => {
    const state = activeShareAfter([...requested, reset]);
    expect([state.size, state.pendingResize, state.instances[0]?.status]).toEqual([
      2,
      null,
      'available',
    ]);
  });
  it('given an extend a node runs, when the instance is reset, then the driver outcome still counts', () => {
    const running = [...requested, claimed('extend_share', 'c-ext'), reset];
    expect(activeShareAfter(running).pendingResize).not.toBeNull();
    spec
      .given(running)
      .when({
        type: 'CompleteShareInstanceResize',
        instanceId: 'i1',
        commandId: 'c-ext',
        now: later,
      })
      .then([resized('i1', 'c-ext')]);
    expect(activeShareAfter([...running, resized('i1', 'c-ext')]).size).toBe(3);
  });
});

describe('share decider: a replica deleted while a snapshot is deleted', () => {
  it('given a snapshot whose last instance is on the replica and being deleted, when the replica is deleted, then the snapshot is too', () => {
    const snapshotOnReplica = (status: 'deleting' | 'available'): ShareEvent[] => [
      ...withReplica(),
      snapshotRequested('sn1', [{ id: 'sn1-r1', shareInstanceId: 'r1' }]),
      ...(status === 'deleting'
        ? [
            {
              type: 'SnapshotDeletionRequested',
              data: {
                snapshotId: 'sn1',
                snapshotInstanceIds: ['sn1-r1'],
                force: false,
                requestedAt: later,
              },
            } satisfies ShareEvent,
          ]
        : []),
      {
        type: 'ReplicaDeletionRequested',
        data: { replicaId: 'r1', force: false, requestedAt: later },
      },
      claimedOn('r1', 'delete_replica', 'c-delete'),
    ];
    const complete = {
      type: 'CompleteReplicaDeletion',
      replicaId: 'r1',
      commandId: 'c-delete',
      now: later,
    } as const;
    const replicaDeleted: ShareEvent = {
      type: 'ReplicaDeleted',
      data: {
        replicaId: 'r1',
        commandId: 'c-delete',
        quotaHolderId: 'r1',
        shareSize: 2,
        deletedAt: later,
      },
    };
    spec
      .given(snapshotOnReplica('deleting'))
      .when(complete)
      .then([
        replicaDeleted,
        { type: 'SnapshotDeleted', data: { snapshotId: 'sn1', projectId: 'p1', deletedAt: later } },
      ]);
    spec.given(snapshotOnReplica('available')).when(complete).then([replicaDeleted]);
  });
});

describe('share decider: snapshots against replica changes', () => {
  const deletionRequested = (ids: string[]): ShareEvent => ({
    type: 'SnapshotDeletionRequested',
    data: { snapshotId: 'sn1', snapshotInstanceIds: ids, force: false, requestedAt: later },
  });
  const onBoth = [
    { id: 'sn1-i1', shareInstanceId: 'i1' },
    { id: 'sn1-r1', shareInstanceId: 'r1' },
  ];
  it('given a snapshot being deleted, when a replica is requested, then it gets no copy of it', () =>
    spec
      .given([
        ...replicated(),
        snapshotRequested('sn1', [{ id: 'sn1-i1', shareInstanceId: 'i1' }]),
        {
          type: 'SnapshotInstanceCreated',
          data: {
            snapshotId: 'sn1',
            snapshotInstanceId: 'sn1-i1',
            commandId: 'c-snap',
            status: 'available',
            progress: '100%',
            providerLocation: null,
            createdAt: later,
          },
        },
        deletionRequested(['sn1-i1']),
      ])
      .when({ type: 'RequestReplica', replicaId: 'r2', availabilityZone: 'az-2', now: later })
      .then([replicaRequested('r2')]));
  it('given a replica being promoted, when a snapshot is deleted, then it is refused', () =>
    spec
      .given([...withReplica(), snapshotRequested('sn1', onBoth), ...promoting().slice(-1)])
      .when({ type: 'DeleteSnapshot', snapshotId: 'sn1', force: true, now: later })
      .thenThrows('invalid', /being promoted/));
  it('given a snapshot still being created on a replica, when that replica is promoted, then it is refused', () =>
    spec
      .given([...withReplica(), snapshotRequested('sn1', onBoth)])
      .when({ type: 'PromoteReplica', replicaId: 'r1', isAdmin: false, now: later })
      .thenThrows('invalid', /busy with snapshot sn1/));
});

describe('share decider: access rules against a promotion', () => {
  const allow = {
    type: 'AllowAccess',
    accessId: 'a1',
    accessType: 'ip',
    accessTo: '10.0.0.1',
    accessLevel: 'rw',
    metadata: {},
    ipv6: true,
    now: later,
  } as const;
  /** The rule `allow` asks for, still being applied on i1 and r1. */
  const allowed: ShareEvent = {
    type: 'ShareAccessAllowed',
    data: {
      accessId: 'a1',
      accessType: 'ip',
      accessTo: '10.0.0.1',
      accessLevel: 'rw',
      metadata: {},
      instanceIds: ['i1', 'r1'],
      createdAt: later,
    },
  };
  it('given a replica being promoted, when a rule is allowed, then it is refused', () =>
    spec
      .given(promoting())
      .when(allow)
      .thenThrows('invalid', /replication_change/));
  it('given a rule still being applied on a replica, when that replica is promoted, then it is refused', () =>
    spec
      .given([...withReplica(), allowed])
      .when({ type: 'PromoteReplica', replicaId: 'r1', isAdmin: false, now: later })
      .thenThrows('invalid', /applying access rules/));
  it('given a rule still being applied on a replica, when that replica is deleted, then it is refused; one still being built is deleted', () => {
    spec
      .given([...withReplica(), allowed])
      .when(deleteReplica(true))
      .thenThrows('invalid', /applying access rules/);
    spec
      .given([...replicaBeingCreated(), allowed])
      .when(deleteReplica(false))
      .then([
        {
          type: 'ReplicaDeletionRequested',
          data: { replicaId: 'r1', force: false, requestedAt: later },
        },
        {
          type: 'ReplicaDeleted',
          data: {
            replicaId: 'r1',
            commandId: null,
            quotaHolderId: 'r1',
            shareSize: 2,
            deletedAt: later,
          },
        },
      ]);
  });
});
