import { deciderSpec } from '../test-support/decider-spec.js';
import { shareDecider } from './share.decide.js';
import type { ShareEvent } from './share.events.js';
import { snapshotInstanceIdOf } from './share-snapshot.state.js';
import {
  claimedOn,
  R_HOST,
  replicaCreated,
  replicaRequested,
  replicaScheduled,
  snapshotRequested,
  withReplica,
} from './test-support/replica-history.js';
import { activeShareAfter, availableShare, later, now } from './test-support/share-history.js';

const spec = deciderSpec(shareDecider);

const replicatedShare = (type = 'readable') => availableShare({ replication_type: type });

const promotionRequested: ShareEvent = {
  type: 'ReplicaPromotionRequested',
  data: { replicaId: 'r1', requestedAt: later },
};
const promoting = (): ShareEvent[] => [
  ...withReplica(),
  promotionRequested,
  claimedOn('r1', 'promote_replica', 'c-promote'),
];
const stateAfter = (events: ShareEvent[]) => activeShareAfter(events);
const replicaStates = (events: ShareEvent[]) =>
  Object.fromEntries(stateAfter(events).instances.map((i) => [i.id, [i.status, i.replicaState]]));

describe('share decider: replicas', () => {
  describe('creating a replica', () => {
    it('the first instance of a replicated share is active once created', () =>
      expect(replicaStates(replicatedShare())).toEqual({ i1: ['available', 'active'] }));
    it('requests a replica out_of_sync with an instance of every snapshot', () => {
      const snapshot = snapshotRequested(
        'sn1',
        [{ id: snapshotInstanceIdOf('sn1', 'i1'), shareInstanceId: 'i1' }],
        { createdAt: now },
      );
      spec
        .given([...replicatedShare(), snapshot])
        .when({ type: 'RequestReplica', replicaId: 'r1', availabilityZone: 'az-2', now: later })
        .then([replicaRequested('r1', ['sn1'])]);
      expect(replicaStates([...replicatedShare(), replicaRequested()]).r1).toEqual([
        'creating',
        'out_of_sync',
      ]);
    });
    it('refuses a share whose type has no replication_type', () =>
      spec
        .given(availableShare())
        .when({ type: 'RequestReplica', replicaId: 'r1', availabilityZone: null, now: later })
        .thenThrows('invalid', /Replication not supported/));
    it('refuses a share without an active available replica', () =>
      spec
        .given(replicatedShare().slice(0, 2))
        .when({ type: 'RequestReplica', replicaId: 'r1', availabilityZone: null, now: later })
        .thenThrows('invalid', /active replica/));
    it('refuses while a promotion is in progress', () =>
      spec
        .given(promoting())
        .when({ type: 'RequestReplica', replicaId: 'r2', availabilityZone: null, now: later })
        .thenThrows('invalid', /busy/));
    it('is scheduled once, and the node claims create_replica only after scheduling', () => {
      spec
        .given([...replicatedShare(), replicaRequested()])
        .when({
          type: 'StartDriverOperation',
          instanceId: 'r1',
          operation: 'create_replica',
          commandId: 'c1',
          host: R_HOST,
          now: later,
        })
        .thenNothing();
      spec
        .given([...replicatedShare(), replicaRequested(), replicaScheduled()])
        .when({
          type: 'ScheduleReplica',
          replicaId: 'r1',
          host: 'node3@b3#p1',
          availabilityZone: 'az-3',
          now: later,
        })
        .thenNothing();
    });
    it('a scheduling failure leaves the replica and its snapshot instances in error', () => {
      const failed: ShareEvent = {
        type: 'ReplicaSchedulingFailed',
        data: { replicaId: 'r1', message: 'No valid host', detail: {}, failedAt: later },
      };
      spec
        .given([...replicatedShare(), replicaRequested()])
        .when({
          type: 'FailReplicaScheduling',
          replicaId: 'r1',
          message: 'No valid host',
          detail: {},
          now: later,
        })
        .then([failed]);
      expect(replicaStates([...replicatedShare(), replicaRequested(), failed]).r1).toEqual([
        'error',
        'error',
      ]);
    });
    it('the driver reports the replica in_sync: available, rules applied on it', () => {
      const history = [
        ...replicatedShare(),
        {
          type: 'ShareAccessAllowed',
          data: {
            accessId: 'a1',
            accessType: 'ip',
            accessTo: '10.0.0.1',
            accessLevel: 'rw',
            metadata: {},
            instanceIds: ['i1'],
            createdAt: now,
          },
        } satisfies ShareEvent,
        replicaRequested(),
        replicaScheduled(),
        claimedOn('r1', 'create_replica', 'c-create-r1'),
      ];
      expect(stateAfter(history).accessRules[0]?.instances.r1).toBe('queued_to_apply');
      spec
        .given(history)
        .when({
          type: 'CompleteReplicaCreation',
          replicaId: 'r1',
          commandId: 'c-create-r1',
          replicaState: 'in_sync',
          exportLocations: [],
          accessRulesStatus: 'active',
          snapshotInstanceIds: [],
          now: later,
        })
        .then([replicaCreated()]);
      const after = stateAfter([...history, replicaCreated()]);
      expect(after.accessRules[0]?.instances.r1).toBe('active');
      expect(replicaStates([...history, replicaCreated()]).r1).toEqual(['available', 'in_sync']);
    });
    it('a driver failure leaves the replica error/error; a stale outcome decides nothing', () => {
      const history = [
        ...replicatedShare(),
        replicaRequested(),
        replicaScheduled(),
        claimedOn('r1', 'create_replica', 'c-create-r1'),
      ];
      const failure = {
        type: 'FailReplicaCreation' as const,
        replicaId: 'r1',
        message: 'boom',
        now: later,
      };
      spec
        .given(history)
        .when({ ...failure, commandId: 'c-create-r1' })
        .then([
          {
            type: 'ReplicaCreationFailed',
            data: { replicaId: 'r1', commandId: 'c-create-r1', message: 'boom', failedAt: later },
          },
        ]);
      spec
        .given(history)
        .when({ ...failure, commandId: 'c-other' })
        .thenNothing();
    });
  });

  describe('promoting', () => {
    it('puts the replica in replication_change, which makes the share busy', () => {
      spec
        .given(withReplica())
        .when({ type: 'PromoteReplica', replicaId: 'r1', isAdmin: false, now: later })
        .then([promotionRequested]);
      const state = stateAfter([...withReplica(), promotionRequested]);
      expect(state.instances.find((i) => i.id === 'r1')?.status).toBe('replication_change');
    });
    it('a second promotion while one runs is refused', () =>
      spec
        .given([...withReplica(), promotionRequested])
        .when({ type: 'PromoteReplica', replicaId: 'r1', isAdmin: true, now: later })
        .thenThrows('invalid', /status must be available/));
    it('promoting another replica while one is promoted is refused as busy', () =>
      spec
        .given([
          ...withReplica(),
          replicaRequested('r2'),
          replicaScheduled('r2'),
          claimedOn('r2', 'create_replica', 'c-create-r2'),
          replicaCreated('r2'),
          promotionRequested,
        ])
        .when({ type: 'PromoteReplica', replicaId: 'r2', isAdmin: true, now: later })
        .thenThrows('invalid', /busy/));
    it('the active replica (and every writable replica) is promoted by doing nothing', () =>
      spec
        .given(withReplica())
        .when({ type: 'PromoteReplica', replicaId: 'i1', isAdmin: false, now: later })
        .thenNothing());
    it('an out_of_sync replica is promoted by admins only', () => {
      const outOfSync = [
        ...replicatedShare(),
        replicaRequested(),
        replicaScheduled(),
        claimedOn('r1', 'create_replica', 'c-create-r1'),
        replicaCreated('r1', 'out_of_sync'),
      ];
      spec
        .given(outOfSync)
        .when({ type: 'PromoteReplica', replicaId: 'r1', isAdmin: false, now: later })
        .thenThrows('forbidden');
      spec
        .given(outOfSync)
        .when({ type: 'PromoteReplica', replicaId: 'r1', isAdmin: true, now: later })
        .then([promotionRequested]);
    });
    it('the driver promotes: the replica is active, the old active what the driver said', () => {
      const promoted: ShareEvent = {
        type: 'ReplicaPromoted',
        data: {
          replicaId: 'r1',
          commandId: 'c-promote',
          replicas: [
            { replicaId: 'i1', replicaState: 'in_sync' },
            { replicaId: 'r1', replicaState: 'active' },
          ],
          promotedAt: later,
        },
      };
      spec
        .given(promoting())
        .when({
          type: 'CompleteReplicaPromotion',
          replicaId: 'r1',
          commandId: 'c-promote',
          replicas: [
            { replicaId: 'r1', replicaState: 'active' },
            { replicaId: 'i1', replicaState: 'in_sync' },
          ],
          now: later,
        })
        .then([promoted]);
      expect(replicaStates([...promoting(), promoted])).toEqual({
        i1: ['available', 'in_sync'],
        r1: ['available', 'active'],
      });
    });
    it('an old active the driver left out is out_of_sync: exactly one replica stays active', () =>
      spec
        .given(promoting())
        .when({
          type: 'CompleteReplicaPromotion',
          replicaId: 'r1',
          commandId: 'c-promote',
          replicas: [],
          now: later,
        })
        .then([
          {
            type: 'ReplicaPromoted',
            data: {
              replicaId: 'r1',
              commandId: 'c-promote',
              replicas: [
                { replicaId: 'i1', replicaState: 'out_of_sync' },
                { replicaId: 'r1', replicaState: 'active' },
              ],
              promotedAt: later,
            },
          },
        ]));
    it('a driver failure puts every replica in error', () => {
      const failed: ShareEvent = {
        type: 'ReplicaPromotionFailed',
        data: { replicaId: 'r1', commandId: 'c-promote', message: 'boom', failedAt: later },
      };
      spec
        .given(promoting())
        .when({
          type: 'FailReplicaPromotion',
          replicaId: 'r1',
          commandId: 'c-promote',
          message: 'boom',
          now: later,
        })
        .then([failed]);
      expect(replicaStates([...promoting(), failed])).toEqual({
        i1: ['error', 'active'],
        r1: ['error', 'in_sync'],
      });
    });
  });

  describe('refreshing and resetting', () => {
    const refresh = (outcome: 'in_sync' | 'out_of_sync' | 'error' | 'failed') => ({
      type: 'RefreshReplicaState' as const,
      replicaId: 'r1',
      outcome,
      now: later,
    });
    it('records a changed replica_state and nothing when it is unchanged', () => {
      spec
        .given(withReplica())
        .when(refresh('out_of_sync'))
        .then([
          {
            type: 'ReplicaStateRefreshed',
            data: {
              replicaId: 'r1',
              replicaState: 'out_of_sync',
              statusError: false,
              refreshedAt: later,
            },
          },
        ]);
      spec.given(withReplica()).when(refresh('in_sync')).thenNothing();
    });
    it('a failing driver puts replica_state and status in error', () =>
      spec
        .given(withReplica())
        .when(refresh('failed'))
        .then([
          {
            type: 'ReplicaStateRefreshed',
            data: { replicaId: 'r1', replicaState: 'error', statusError: true, refreshedAt: later },
          },
        ]));
    it('never refreshes the active replica or a replica in a transitional status', () => {
      spec
        .given(withReplica())
        .when({ ...refresh('in_sync'), replicaId: 'i1' })
        .thenNothing();
      spec
        .given([...withReplica(), promotionRequested])
        .when(refresh('out_of_sync'))
        .thenNothing();
    });
    it('resync is recorded for a non-active replica and is a no-op on the active one', () => {
      spec
        .given(withReplica())
        .when({ type: 'ResyncReplica', replicaId: 'r1', now: later })
        .then([{ type: 'ReplicaResyncRequested', data: { replicaId: 'r1', requestedAt: later } }]);
      spec
        .given(withReplica())
        .when({ type: 'ResyncReplica', replicaId: 'i1', now: later })
        .thenNothing();
      spec
        .given([...replicatedShare(), replicaRequested()])
        .when({ type: 'ResyncReplica', replicaId: 'r1', now: later })
        .thenThrows('invalid', /no host/);
    });
    it('admins reset status and replica_state within the allowed sets', () => {
      spec
        .given(withReplica())
        .when({ type: 'ResetReplicaStatus', replicaId: 'r1', status: 'error', now: later })
        .then([
          {
            type: 'ShareStatusReset',
            data: { instanceId: 'r1', status: 'error', resetAt: later },
          },
        ]);
      spec
        .given(withReplica())
        .when({
          type: 'ResetReplicaState',
          replicaId: 'r1',
          replicaState: 'out_of_sync',
          now: later,
        })
        .then([
          {
            type: 'ReplicaStateReset',
            data: { replicaId: 'r1', replicaState: 'out_of_sync', resetAt: later },
          },
        ]);
      spec
        .given(withReplica())
        .when({
          type: 'ResetReplicaState',
          replicaId: 'r1',
          replicaState: 'bogus' as 'error',
          now: later,
        })
        .thenThrows('invalid');
      spec
        .given(withReplica())
        .when({ type: 'ResetReplicaState', replicaId: 'nope', replicaState: 'error', now: later })
        .thenThrows('not_found');
    });
  });

  describe('deleting', () => {
    const deletionRequested = (force = false): ShareEvent => ({
      type: 'ReplicaDeletionRequested',
      data: { replicaId: 'r1', force, requestedAt: later },
    });
    const deleted = (holder: string | null, commandId: string | null = 'c-delete'): ShareEvent => ({
      type: 'ReplicaDeleted',
      data: { replicaId: 'r1', commandId, quotaHolderId: holder, shareSize: 2, deletedAt: later },
    });
    it('refuses to delete the only active replica, forced or not', () => {
      spec
        .given(withReplica())
        .when({ type: 'DeleteReplica', replicaId: 'i1', force: true, now: later })
        .thenThrows('invalid', /only active replica/);
    });
    it('refuses to delete a share that still has replicas (409)', () =>
      spec
        .given(withReplica())
        .when({ type: 'DeleteShare', force: true, now: later })
        .thenThrows('conflict'));
    it('deletes a replica through the node and releases its quota holder', () => {
      spec
        .given(withReplica())
        .when({ type: 'DeleteReplica', replicaId: 'r1', force: false, now: later })
        .then([deletionRequested()]);
      const deleting = [
        ...withReplica(),
        deletionRequested(),
        claimedOn('r1', 'delete_replica', 'c-delete'),
      ];
      spec
        .given(deleting)
        .when({
          type: 'CompleteReplicaDeletion',
          replicaId: 'r1',
          commandId: 'c-delete',
          now: later,
        })
        .then([deleted('r1')]);
      const after = stateAfter([...deleting, deleted('r1')]);
      expect(after.instances.map((i) => i.id)).toEqual(['i1']);
      expect(after.replication?.quotaHolders).toEqual([]);
    });
    it('deleting the first instance after a promotion releases the added replica holder', () => {
      const promoted: ShareEvent = {
        type: 'ReplicaPromoted',
        data: {
          replicaId: 'r1',
          commandId: 'c-promote',
          replicas: [
            { replicaId: 'i1', replicaState: 'in_sync' },
            { replicaId: 'r1', replicaState: 'active' },
          ],
          promotedAt: later,
        },
      };
      spec
        .given([...promoting(), promoted])
        .when({ type: 'DeleteReplica', replicaId: 'i1', force: false, now: later })
        .then([
          {
            type: 'ReplicaDeletionRequested',
            data: { replicaId: 'i1', force: false, requestedAt: later },
          },
        ]);
      spec
        .given([
          ...promoting(),
          promoted,
          {
            type: 'ReplicaDeletionRequested',
            data: { replicaId: 'i1', force: false, requestedAt: later },
          },
          claimedOn('i1', 'delete_replica', 'c-del-i1'),
        ])
        .when({
          type: 'CompleteReplicaDeletion',
          replicaId: 'i1',
          commandId: 'c-del-i1',
          now: later,
        })
        .then([
          {
            type: 'ReplicaDeleted',
            data: {
              replicaId: 'i1',
              commandId: 'c-del-i1',
              quotaHolderId: 'r1',
              shareSize: 2,
              deletedAt: later,
            },
          },
        ]);
    });
    it('a hostless replica is deleted at once', () =>
      spec
        .given([...replicatedShare(), replicaRequested()])
        .when({ type: 'DeleteReplica', replicaId: 'r1', force: false, now: later })
        .then([deletionRequested(), deleted('r1', null)]));
    it('a driver failure is error_deleting unless the deletion was forced', () => {
      const failing = (force: boolean) => [
        ...withReplica(),
        deletionRequested(force),
        claimedOn('r1', 'delete_replica', 'c-delete'),
      ];
      const fail = {
        type: 'FailReplicaDeletion' as const,
        replicaId: 'r1',
        commandId: 'c-delete',
        message: 'boom',
        now: later,
      };
      spec
        .given(failing(false))
        .when(fail)
        .then([
          {
            type: 'ReplicaDeletionFailed',
            data: { replicaId: 'r1', commandId: 'c-delete', message: 'boom', failedAt: later },
          },
        ]);
      spec
        .given(failing(true))
        .when(fail)
        .then([deleted('r1')]);
    });
  });
});
