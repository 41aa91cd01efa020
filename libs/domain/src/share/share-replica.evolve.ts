import { withdrawInstanceFromRules } from './share-access.evolve.js';
import { updateInstance as updateReplica } from './share-instance.updates.js';
import { settlePending } from './share-pending.js';
import type { ReplicaEvent } from './share-replica.events.js';
import { replicationOf } from './share-replica.state.js';
import type { SnapshotInstanceState, SnapshotStatus } from './share-snapshot.state.js';
import { newShareInstance, type ShareInstanceState, type ActiveShare } from './share.state.js';
import type { ReplicaState, ShareStatus } from './share.types.js';

const updateSnapshotInstances = (
  state: ActiveShare,
  update: (instance: SnapshotInstanceState) => SnapshotInstanceState,
): ActiveShare => ({
  ...state,
  snapshots: state.snapshots.map((s) => ({ ...s, instances: s.instances.map(update) })),
});

/** The replica's snapshot instances in `from` statuses take status `to`. */
const setReplicaSnapshots = (
  state: ActiveShare,
  replicaId: string,
  to: SnapshotStatus,
  at: string,
  only?: (instance: SnapshotInstanceState) => boolean,
): ActiveShare =>
  updateSnapshotInstances(state, (i) =>
    i.shareInstanceId === replicaId && (!only || only(i))
      ? { ...i, status: to, ...(to === 'available' && { progress: '100%' }), updatedAt: at }
      : i,
  );

/** The new replica carries every rule not being denied, queued until the driver applies it. */
const queueRulesOn = (state: ActiveShare, replicaId: string): ActiveShare => ({
  ...state,
  accessRules: state.accessRules.map((rule) =>
    Object.values(rule.instances).some((s) => s === 'queued_to_deny' || s === 'denying')
      ? rule
      : { ...rule, instances: { ...rule.instances, [replicaId]: 'queued_to_apply' } },
  ),
});

/** create_replica applied the queued rules (reference 5.1). */
const settleRulesOn = (
  state: ActiveShare,
  replicaId: string,
  outcome: 'active' | 'error',
): ActiveShare => ({
  ...state,
  accessRules: state.accessRules.map((rule) =>
    rule.instances[replicaId] === 'queued_to_apply'
      ? { ...rule, instances: { ...rule.instances, [replicaId]: outcome } }
      : rule,
  ),
});

const withoutReplica = (state: ActiveShare, replicaId: string, at: string): ActiveShare => {
  const replication = replicationOf(state);
  return {
    ...state,
    instances: state.instances.filter((i) => i.id !== replicaId),
    snapshots: state.snapshots.map((s) => ({
      ...s,
      instances: s.instances.filter((i) => i.shareInstanceId !== replicaId),
    })),
    accessRules: withdrawInstanceFromRules(state.accessRules, replicaId, at),
    replication: {
      ...replication,
      forcedDeletions: replication.forcedDeletions.filter((id) => id !== replicaId),
    },
  };
};

/** A replica being built or deleted meanwhile is left to its own operation's outcome. */
const BUILDING_OR_DELETING: ReadonlySet<ShareStatus> = new Set<ShareStatus>([
  'creating',
  'deleting',
]);

/** A promotion makes the promoted replica available and a replica reported in error `error`. */
const afterPromotion = (
  replica: ShareInstanceState,
  outcome: 'available' | ReplicaState,
): ShareStatus => {
  if (BUILDING_OR_DELETING.has(replica.status)) return replica.status;
  if (outcome === 'available' || outcome === 'error') return outcome;
  return replica.status;
};

export const evolveReplica = (state: ActiveShare, event: ReplicaEvent): ActiveShare => {
  switch (event.type) {
    case 'ReplicaRequested': {
      const d = event.data;
      const replication = replicationOf(state);
      const replica = newShareInstance(
        d.replicaId,
        'creating',
        '',
        d.availabilityZone,
        d.requestedAt,
        {
          replicaState: 'out_of_sync',
          replicaRequest: {
            availabilityZone: d.availabilityZone,
            ...(d.onlyHost !== undefined && { onlyHost: d.onlyHost }),
          },
        },
      );
      const instanceOf = new Map(d.snapshotInstances.map((s) => [s.snapshotId, s]));
      return queueRulesOn(
        {
          ...state,
          instances: [...state.instances, replica],
          snapshots: state.snapshots.map((s) => {
            const added = instanceOf.get(s.id);
            if (!added) return s;
            const instance: SnapshotInstanceState = {
              id: added.snapshotInstanceId,
              shareInstanceId: d.replicaId,
              status: 'creating',
              progress: '0%',
              providerLocation: null,
              createdAt: d.requestedAt,
              updatedAt: d.requestedAt,
            };
            return { ...s, instances: [...s.instances, instance] };
          }),
          replication: {
            ...replication,
            quotaHolders: [...replication.quotaHolders, d.quotaHolderId],
          },
        },
        d.replicaId,
      );
    }
    case 'ReplicaScheduled':
      return updateReplica(state, event.data.replicaId, (r) => ({
        ...r,
        host: event.data.host,
        availabilityZone: event.data.availabilityZone,
        updatedAt: event.data.scheduledAt,
      }));
    case 'ReplicaSchedulingFailed': {
      const d = event.data;
      const failed = updateReplica(state, d.replicaId, (r) => ({
        ...r,
        status: 'error',
        replicaState: 'error',
        updatedAt: d.failedAt,
      }));
      return setReplicaSnapshots(failed, d.replicaId, 'error', d.failedAt);
    }
    case 'ReplicaCreated': {
      const d = event.data;
      const settled = settlePending(state, d.commandId, d.createdAt);
      const created = updateReplica(settled, d.replicaId, (r) => ({
        ...r,
        // A replica whose deletion was asked for while it was built stays `deleting`.
        status: r.status === 'deleting' ? 'deleting' : 'available',
        replicaState: d.replicaState,
        progress: '100%',
        exportLocations: d.exportLocations,
      }));
      const copied = new Set(d.snapshotInstanceIds);
      return settleRulesOn(
        setReplicaSnapshots(created, d.replicaId, 'available', d.createdAt, (i) =>
          copied.has(i.id),
        ),
        d.replicaId,
        d.accessRulesStatus,
      );
    }
    case 'ReplicaCreationFailed': {
      const d = event.data;
      const settled = settlePending(state, d.commandId, d.failedAt);
      return updateReplica(settled, d.replicaId, (r) => ({
        ...r,
        status: r.status === 'deleting' ? 'deleting' : 'error',
        replicaState: 'error',
      }));
    }
    case 'ReplicaDeletionRequested': {
      const d = event.data;
      const replication = replicationOf(state);
      const marked = updateReplica(state, d.replicaId, (r) => ({
        ...r,
        status: 'deleting',
        updatedAt: d.requestedAt,
      }));
      if (!d.force) return marked;
      return {
        ...marked,
        replication: {
          ...replication,
          forcedDeletions: [
            ...replication.forcedDeletions.filter((id) => id !== d.replicaId),
            d.replicaId,
          ],
        },
      };
    }
    case 'ReplicaDeleted': {
      const d = event.data;
      const gone = withoutReplica(state, d.replicaId, d.deletedAt);
      const replication = replicationOf(gone);
      return {
        ...gone,
        replication: {
          ...replication,
          quotaHolders: replication.quotaHolders.filter((id) => id !== d.quotaHolderId),
        },
      };
    }
    case 'ReplicaDeletionFailed': {
      const d = event.data;
      const settled = settlePending(state, d.commandId, d.failedAt);
      return updateReplica(settled, d.replicaId, (r) => ({
        ...r,
        status: 'error_deleting',
        replicaState: 'error',
      }));
    }
    case 'ReplicaPromotionRequested':
      return updateReplica(state, event.data.replicaId, (r) => ({
        ...r,
        status: 'replication_change',
        updatedAt: event.data.requestedAt,
      }));
    case 'ReplicaPromoted': {
      const d = event.data;
      const settled = settlePending(state, d.commandId, d.promotedAt);
      const updates = new Map(d.replicas.map((r) => [r.replicaId, r]));
      const promoted: ActiveShare = {
        ...settled,
        instances: settled.instances.map((i) => {
          const update = updates.get(i.id);
          if (!update) return i;
          const isPromoted = i.id === d.replicaId;
          return {
            ...i,
            replicaState: update.replicaState,
            exportLocations: update.exportLocations ?? i.exportLocations,
            status: afterPromotion(i, isPromoted ? 'available' : update.replicaState),
            updatedAt: d.promotedAt,
          };
        }),
      };
      // Snapshot operations caught mid-way on the promoted replica end in error (reference 2.4).
      return setReplicaSnapshots(
        promoted,
        d.replicaId,
        'error',
        d.promotedAt,
        (i) => i.status === 'creating' || i.status === 'deleting',
      );
    }
    case 'ReplicaPromotionFailed': {
      const d = event.data;
      const settled = settlePending(state, d.commandId, d.failedAt);
      return {
        ...settled,
        instances: settled.instances.map((i) =>
          i.replicaState === null || BUILDING_OR_DELETING.has(i.status)
            ? i
            : { ...i, status: 'error', updatedAt: d.failedAt },
        ),
      };
    }
    case 'ReplicaResyncRequested':
      return state;
    case 'ReplicaStateRefreshed': {
      const d = event.data;
      return updateReplica(state, d.replicaId, (r) => ({
        ...r,
        replicaState: d.replicaState,
        ...(d.statusError && { status: 'error' }),
        updatedAt: d.refreshedAt,
      }));
    }
    case 'ReplicaStateReset':
      return updateReplica(state, event.data.replicaId, (r) => ({
        ...r,
        replicaState: event.data.replicaState,
        updatedAt: event.data.resetAt,
      }));
  }
};
