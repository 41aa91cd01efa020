import { deciderSpec } from '../test-support/decider-spec.js';
import { shareDecider } from './share.decide.js';
import type { ShareEvent } from './share.events.js';
import type { DriverOperation } from './share.types.js';
import { snapshotAggregateStatus, snapshotInstanceIdOf } from './share-snapshot.state.js';
import { replicaStateIn } from './share-snapshot.decide.js';
import {
  claimedOn,
  R_HOST,
  snapshotRequested,
  withReplica,
} from './test-support/replica-history.js';
import { activeShareAfter, availableShare, HOST, later } from './test-support/share-history.js';

const spec = deciderSpec(shareDecider);
const ON_ACTIVE = snapshotInstanceIdOf('snap1', 'i1');
const ON_REPLICA = snapshotInstanceIdOf('snap1', 'r1');

/** A node's claim, of snap1's instance `snapshotInstanceId` when given. */
const claimedFor = (
  instanceId: string,
  operation: DriverOperation,
  commandId: string,
  snapshotInstanceId?: string,
): ShareEvent =>
  claimedOn(
    instanceId,
    operation,
    commandId,
    snapshotInstanceId ? { snapshotId: 'snap1', snapshotInstanceId } : undefined,
  );

/** A readable share: active i1 on node1, replica r1 on node2 (in_sync unless told otherwise). */
const withReplicaIn = (replicaState: 'in_sync' | 'out_of_sync' | 'active' = 'in_sync') =>
  withReplica(replicaState === 'active' ? 'writable' : 'readable', replicaState);

const requested = snapshotRequested(
  'snap1',
  [
    { id: ON_ACTIVE, shareInstanceId: 'i1' },
    { id: ON_REPLICA, shareInstanceId: 'r1' },
  ],
  { activeInstanceId: 'i1' },
);
const claimCreate = claimedFor('i1', 'create_replicated_snapshot', 'c-snap', ON_ACTIVE);
const creating = (replicaState?: 'in_sync' | 'out_of_sync' | 'active') => [
  ...withReplicaIn(replicaState),
  requested,
  claimCreate,
];
/** The driver of the active replica's node: available there, creating on the replica. */
const created: ShareEvent = {
  type: 'ReplicatedSnapshotCreated',
  data: {
    snapshotId: 'snap1',
    commandId: 'c-snap',
    instances: [
      {
        snapshotInstanceId: ON_ACTIVE,
        status: 'available',
        progress: '100%',
        providerLocation: 'sim:a',
      },
      {
        snapshotInstanceId: ON_REPLICA,
        status: 'creating',
        progress: '0%',
        providerLocation: null,
      },
    ],
    createdAt: later,
  },
};
const refreshedAvailable: ShareEvent = {
  type: 'ReplicaSnapshotRefreshed',
  data: {
    snapshotId: 'snap1',
    snapshotInstanceId: ON_REPLICA,
    status: 'available',
    progress: '100%',
    refreshedAt: later,
  },
};
const withSnapshot = [...creating(), created, refreshedAvailable];
const deletionRequested = (force: boolean): ShareEvent => ({
  type: 'SnapshotDeletionRequested',
  data: {
    snapshotId: 'snap1',
    snapshotInstanceIds: [ON_ACTIVE, ON_REPLICA],
    force,
    activeInstanceId: 'i1',
    requestedAt: later,
  },
});
const claimDelete = claimedFor('i1', 'delete_replicated_snapshot', 'c-del', ON_ACTIVE);
const deleting = (force = false) => [...withSnapshot, deletionRequested(force), claimDelete];

const refresh = (outcome: 'not_found' | 'failed' | { status: 'available'; progress: string }) => ({
  type: 'RefreshReplicaSnapshot' as const,
  snapshotId: 'snap1',
  snapshotInstanceId: ON_REPLICA,
  outcome,
  now: later,
});

const snapshotView = (events: ShareEvent[]) => {
  const state = activeShareAfter(events);
  const snapshot = state.snapshots.find((s) => s.id === 'snap1');
  return (
    snapshot && {
      status: snapshotAggregateStatus(snapshot, replicaStateIn(state)),
      instances: Object.fromEntries(snapshot.instances.map((i) => [i.id, i.status])),
    }
  );
};

describe('share decider: snapshots of a share with replicas (reference 5.8)', () => {
  describe('RequestSnapshot', () => {
    it('names the active replica, whose node takes every instance', () =>
      spec
        .given(withReplicaIn())
        .when({
          type: 'RequestSnapshot',
          snapshotId: 'snap1',
          projectId: 'p1',
          userId: 'u1',
          name: null,
          description: null,
          now: later,
        })
        .then([requested]));
    it('names no active replica for a replicated share with one replica', () => {
      const events = shareDecider.decide(
        {
          type: 'RequestSnapshot',
          snapshotId: 'snap1',
          projectId: 'p1',
          userId: 'u1',
          name: null,
          description: null,
          now: later,
        },
        activeShareAfter(availableShare({ replication_type: 'readable' })),
      );
      expect(events[0]?.data).not.toHaveProperty('activeInstanceId');
    });
  });

  describe('creation by the active replica’s node', () => {
    it('claims create_replicated_snapshot on the active replica', () =>
      spec
        .given([...withReplicaIn(), requested])
        .when({
          type: 'StartDriverOperation',
          instanceId: 'i1',
          operation: 'create_replicated_snapshot',
          commandId: 'c-snap',
          host: HOST,
          snapshotId: 'snap1',
          snapshotInstanceId: ON_ACTIVE,
          now: later,
        })
        .then([claimCreate]));
    it('records each instance as the driver answered: creating until the replica is refreshed', () => {
      spec
        .given(creating())
        .when({
          type: 'CompleteReplicatedSnapshotCreation',
          snapshotId: 'snap1',
          commandId: 'c-snap',
          instances: created.data.instances as never,
          now: later,
        })
        .then([created]);
      expect(snapshotView([...creating(), created])).toEqual({
        status: 'creating',
        instances: { [ON_ACTIVE]: 'available', [ON_REPLICA]: 'creating' },
      });
      expect(activeShareAfter([...creating(), created]).instances[0]?.pendingOperation).toBe(null);
    });
    it('is available at once when the replica is out_of_sync (only active and in_sync count)', () =>
      expect(snapshotView([...creating('out_of_sync'), created])?.status).toBe('available'));
    it('ignores an outcome whose claim is not open (a replay)', () =>
      spec
        .given([...creating(), created])
        .when({
          type: 'CompleteReplicatedSnapshotCreation',
          snapshotId: 'snap1',
          commandId: 'c-snap',
          instances: [],
          now: later,
        })
        .thenNothing());
    it('a driver failure leaves every creating instance in error', () => {
      const failed: ShareEvent = {
        type: 'ReplicatedSnapshotCreationFailed',
        data: { snapshotId: 'snap1', commandId: 'c-snap', message: 'boom', failedAt: later },
      };
      spec
        .given(creating())
        .when({
          type: 'FailReplicatedSnapshotCreation',
          snapshotId: 'snap1',
          commandId: 'c-snap',
          message: 'boom',
          now: later,
        })
        .then([failed]);
      expect(snapshotView([...creating(), failed])?.instances).toEqual({
        [ON_ACTIVE]: 'error',
        [ON_REPLICA]: 'error',
      });
    });
  });

  describe('the refresh on the replica’s node (update_replicated_snapshot)', () => {
    it('makes the replica’s instance available, and the snapshot with it', () => {
      spec
        .given([...creating(), created])
        .when(refresh({ status: 'available', progress: '100%' }))
        .then([refreshedAvailable]);
      expect(snapshotView(withSnapshot)?.status).toBe('available');
    });
    it('waits while the active replica’s node has not claimed or answered', () => {
      const available = refresh({ status: 'available', progress: '100%' });
      spec
        .given([...withReplicaIn(), requested])
        .when(available)
        .thenNothing();
      spec.given(creating()).when(available).thenNothing();
      spec
        .given([...withSnapshot, deletionRequested(false)])
        .when(refresh('not_found'))
        .thenNothing();
    });
    it('refreshes the other active replicas of a writable share, not the coordinating one', () => {
      spec
        .given([...creating('active'), created])
        .when(refresh({ status: 'available', progress: '100%' }))
        .then([refreshedAvailable]);
      expect(snapshotView([...creating('active'), created, refreshedAvailable])?.status).toBe(
        'available',
      );
    });
    it('records nothing for an instance no longer in transition', () =>
      spec
        .given(withSnapshot)
        .when(refresh({ status: 'available', progress: '100%' }))
        .thenNothing());
    it('puts a creating instance the back end does not have, or a failing refresh, in error', () => {
      const error = { ...refreshedAvailable.data, status: 'error', progress: '0%' };
      spec
        .given([...creating(), created])
        .when(refresh('not_found'))
        .then([{ type: 'ReplicaSnapshotRefreshed', data: error } as ShareEvent]);
      spec
        .given([...creating(), created])
        .when(refresh('failed'))
        .then([{ type: 'ReplicaSnapshotRefreshed', data: error } as ShareEvent]);
    });
  });

  describe('deletion by the active replica’s node', () => {
    it('names the active replica when deletion is asked for', () =>
      spec
        .given(withSnapshot)
        .when({ type: 'DeleteSnapshot', snapshotId: 'snap1', force: false, now: later })
        .then([deletionRequested(false)]));
    it('removes the instances the driver deleted; the refresh finishes the others', () => {
      const partly: ShareEvent = {
        type: 'ReplicatedSnapshotInstancesDeleted',
        data: {
          snapshotId: 'snap1',
          commandId: 'c-del',
          snapshotInstanceIds: [ON_ACTIVE],
          deletedAt: later,
        },
      };
      spec
        .given(deleting())
        .when({
          type: 'CompleteReplicatedSnapshotDeletion',
          snapshotId: 'snap1',
          commandId: 'c-del',
          snapshotInstanceIds: [ON_ACTIVE],
          now: later,
        })
        .then([partly]);
      expect(snapshotView([...deleting(), partly])?.instances).toEqual({
        [ON_REPLICA]: 'deleting',
      });
      spec
        .given([...deleting(), partly])
        .when(refresh('not_found'))
        .then([
          {
            type: 'SnapshotInstanceDeleted',
            data: {
              snapshotId: 'snap1',
              snapshotInstanceId: ON_REPLICA,
              commandId: null,
              deletedAt: later,
            },
          },
          {
            type: 'SnapshotDeleted',
            data: { snapshotId: 'snap1', projectId: 'p1', deletedAt: later },
          },
        ]);
    });
    it('deletes the snapshot when the driver deleted every instance', () =>
      spec
        .given(deleting())
        .when({
          type: 'CompleteReplicatedSnapshotDeletion',
          snapshotId: 'snap1',
          commandId: 'c-del',
          snapshotInstanceIds: [ON_ACTIVE, ON_REPLICA],
          now: later,
        })
        .then([
          {
            type: 'ReplicatedSnapshotInstancesDeleted',
            data: {
              snapshotId: 'snap1',
              commandId: 'c-del',
              snapshotInstanceIds: [ON_ACTIVE, ON_REPLICA],
              deletedAt: later,
            },
          },
          {
            type: 'SnapshotDeleted',
            data: { snapshotId: 'snap1', projectId: 'p1', deletedAt: later },
          },
        ]));
    it('a driver failure leaves every instance error_deleting, unless forced', () => {
      const fail = {
        type: 'FailReplicatedSnapshotDeletion' as const,
        snapshotId: 'snap1',
        commandId: 'c-del',
        message: 'busy',
        now: later,
      };
      const failed: ShareEvent = {
        type: 'ReplicatedSnapshotDeletionFailed',
        data: { snapshotId: 'snap1', commandId: 'c-del', message: 'busy', failedAt: later },
      };
      spec.given(deleting()).when(fail).then([failed]);
      expect(snapshotView([...deleting(), failed])?.instances).toEqual({
        [ON_ACTIVE]: 'error_deleting',
        [ON_REPLICA]: 'error_deleting',
      });
      const forced = shareDecider.decide(fail, activeShareAfter(deleting(true)));
      expect(forced.map((e) => e.type)).toEqual([
        'ReplicatedSnapshotInstancesDeleted',
        'SnapshotDeleted',
      ]);
    });
  });

  it('keeps the per-instance flow for events written before the active replica was named', () => {
    const { activeInstanceId: _omitted, ...legacy } = requested.data as typeof requested.data & {
      activeInstanceId?: string;
    };
    spec
      .given([...withReplicaIn(), { type: 'SnapshotRequested', data: legacy }])
      .when({
        type: 'StartDriverOperation',
        instanceId: 'r1',
        operation: 'create_snapshot',
        commandId: 'c-old',
        host: R_HOST,
        snapshotId: 'snap1',
        snapshotInstanceId: ON_REPLICA,
        now: later,
      })
      .then([claimedFor('r1', 'create_snapshot', 'c-old', ON_REPLICA)]);
  });
});
