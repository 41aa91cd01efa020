import { forbidden, invalid, invalidState, notFound } from '../shared/domain-error.js';
import { refuseIfBusy } from './share-busy.js';
import type { ReplicaCommand } from './share-replica.commands.js';
import type { ReplicaEvent } from './share-replica.events.js';
import type { ShareStatusReset } from './share.events.js';
import type { SnapshotDeleted } from './share-snapshot.events.js';
import { promotionInProgress, replicasOf, replicationOf } from './share-replica.state.js';
import { snapshotInstanceIdOf, type SnapshotState } from './share-snapshot.state.js';
import type { ShareInstanceState, ActiveShare } from './share.state.js';
import {
  RESETTABLE_STATUSES,
  TRANSITIONAL_STATUSES,
  type DriverOperation,
  type ReplicaState,
} from './share.types.js';

const REPLICA_STATES: readonly ReplicaState[] = ['active', 'in_sync', 'out_of_sync', 'error'];

/** Rule mappings a node has still to apply or deny on an instance. */
const RULE_CHANGES: ReadonlySet<string> = new Set([
  'queued_to_apply',
  'applying',
  'queued_to_deny',
  'denying',
]);

/**
 * A node claims one operation per replica at a time: a deletion or promotion kept waiting by a
 * long rule update (or the reverse) would be parked after its retries, so they refuse each other.
 * Only an available replica runs rule updates; one being built or in error holds its queued rules
 * for create_replica, which never comes for it.
 */
const applyingRulesOn = (state: ActiveShare, replica: ShareInstanceState): boolean =>
  replica.status === 'available' &&
  state.accessRules.some((rule) => RULE_CHANGES.has(rule.instances[replica.id] ?? ''));

const notBeingDeleted = (snapshot: SnapshotState): boolean =>
  !snapshot.instances.some((i) => i.status === 'deleting');

const replicaOf = (state: ActiveShare, replicaId: string): ShareInstanceState => {
  const replica = replicasOf(state).find((i) => i.id === replicaId);
  if (!replica) throw notFound(`Share replica ${replicaId} could not be found.`);
  return replica;
};

const claimOpen = (state: ActiveShare, replicaId: string, commandId: string): boolean =>
  state.instances.find((i) => i.id === replicaId)?.pendingOperation?.commandId === commandId;

const requireNotBusy = (state: ActiveShare): void => {
  if (promotionInProgress(state)) {
    throw invalid(`Share ${state.id} is busy: a replica is being promoted.`);
  }
};

/** Whether a replica operation a node wants to claim is still wanted by the share's state. */
export const replicaOperationIsDue = (
  instance: ShareInstanceState,
  operation: Extract<DriverOperation, 'create_replica' | 'delete_replica' | 'promote_replica'>,
): boolean => {
  switch (operation) {
    case 'create_replica':
      return instance.status === 'creating' && instance.host !== '';
    case 'delete_replica':
      return instance.status === 'deleting';
    case 'promote_replica':
      return instance.status === 'replication_change';
  }
};

/**
 * The replica leaves the share, and with it its snapshot instances: a snapshot being deleted
 * whose last instances were on this replica is deleted with it (its deletion would otherwise
 * wait for a refresh of a replica that is gone).
 */
const removal = (
  state: ActiveShare,
  replica: ShareInstanceState,
  commandId: string | null,
  now: string,
): (ReplicaEvent | SnapshotDeleted)[] => {
  const { quotaHolders } = replicationOf(state);
  const quotaHolderId = quotaHolders.includes(replica.id) ? replica.id : (quotaHolders[0] ?? null);
  const finished = state.snapshots.filter(
    (s) =>
      s.instances.length > 0 &&
      s.instances.every((i) => i.shareInstanceId === replica.id && i.status === 'deleting'),
  );
  return [
    {
      type: 'ReplicaDeleted',
      data: {
        replicaId: replica.id,
        commandId,
        quotaHolderId,
        shareSize: state.size,
        deletedAt: now,
      },
    },
    ...finished.map((s): SnapshotDeleted => ({
      type: 'SnapshotDeleted',
      data: { snapshotId: s.id, projectId: s.projectId, deletedAt: now },
    })),
  ];
};

/** What a replica command decides: its own events, and a reset or snapshot removal it implies. */
type Decided = ReplicaEvent | ShareStatusReset | SnapshotDeleted;

const requestReplica = (
  command: Extract<ReplicaCommand, { type: 'RequestReplica' }>,
  state: ActiveShare,
): Decided[] => {
  if (state.instances.some((i) => i.id === command.replicaId)) return [];
  if (!state.capabilities?.replicationType) {
    throw invalid(`Replication not supported for share ${state.id}.`);
  }
  refuseIfBusy(state);
  requireNotBusy(state);
  if (!state.instances.some((i) => i.replicaState === 'active' && i.status === 'available')) {
    throw invalid(`Share ${state.id} has no active replica in available status.`);
  }
  // Built at the share's size while it changes, the replica would end at the old one.
  if (state.pendingResize) {
    throw invalid(
      `Share ${state.id} is busy: its ${state.pendingResize.direction} is in progress.`,
    );
  }
  return [
    {
      type: 'ReplicaRequested',
      data: {
        replicaId: command.replicaId,
        availabilityZone: command.availabilityZone,
        ...(command.onlyHost !== undefined && { onlyHost: command.onlyHost }),
        // A snapshot being deleted would live on through its copy on the new replica.
        snapshotInstances: state.snapshots.filter(notBeingDeleted).map((s) => ({
          snapshotId: s.id,
          snapshotInstanceId: snapshotInstanceIdOf(s.id, command.replicaId),
        })),
        quotaHolderId: command.replicaId,
        requestedAt: command.now,
      },
    },
  ];
};

const scheduleReplica = (
  command: Extract<ReplicaCommand, { type: 'ScheduleReplica' }>,
  state: ActiveShare,
): Decided[] => {
  const replica = replicaOf(state, command.replicaId);
  if (replica.host !== '' || replica.status !== 'creating') return [];
  return [
    {
      type: 'ReplicaScheduled',
      data: {
        replicaId: replica.id,
        host: command.host,
        availabilityZone: command.availabilityZone,
        size: state.size,
        scheduledAt: command.now,
      },
    },
  ];
};

const failReplicaScheduling = (
  command: Extract<ReplicaCommand, { type: 'FailReplicaScheduling' }>,
  state: ActiveShare,
): Decided[] => {
  const replica = replicaOf(state, command.replicaId);
  if (replica.host !== '' || replica.status !== 'creating') return [];
  return [
    {
      type: 'ReplicaSchedulingFailed',
      data: {
        replicaId: replica.id,
        message: command.message,
        detail: command.detail,
        failedAt: command.now,
      },
    },
  ];
};

const completeReplicaCreation = (
  command: Extract<ReplicaCommand, { type: 'CompleteReplicaCreation' }>,
  state: ActiveShare,
): Decided[] => {
  if (!claimOpen(state, command.replicaId, command.commandId)) return [];
  const { type: _type, now, ...data } = command;
  return [{ type: 'ReplicaCreated', data: { ...data, createdAt: now } }];
};

const failReplicaCreation = (
  command: Extract<ReplicaCommand, { type: 'FailReplicaCreation' }>,
  state: ActiveShare,
): Decided[] => {
  if (!claimOpen(state, command.replicaId, command.commandId)) return [];
  const { type: _type, now, ...data } = command;
  return [{ type: 'ReplicaCreationFailed', data: { ...data, failedAt: now } }];
};

const deleteReplica = (
  command: Extract<ReplicaCommand, { type: 'DeleteReplica' }>,
  state: ActiveShare,
): Decided[] => {
  const replica = replicaOf(state, command.replicaId);
  const actives = state.instances.filter((i) => i.replicaState === 'active');
  if (replica.replicaState === 'active' && actives.length === 1) {
    throw invalid('Cannot delete the only active replica of a share.');
  }
  if (replica.status === 'deleting' && !command.force) return [];
  // The promotion's outcome would overwrite the deletion, and the driver call of one would
  // run on a replica the other is changing: one replica operation at a time, even forced.
  if (promotionInProgress(state)) {
    throw invalid(
      `Share replica ${replica.id} cannot be deleted while a replica of share ${state.id} is being promoted.`,
    );
  }
  if (replica.status === 'extending' || replica.status === 'shrinking') {
    throw invalid(
      `Share replica ${replica.id} is ${replica.status}: delete it once the share's resize ends.`,
    );
  }
  if (applyingRulesOn(state, replica)) {
    throw invalid(
      `Share replica ${replica.id} is busy applying access rules: delete it once they are applied.`,
    );
  }
  const events: (ReplicaEvent | SnapshotDeleted)[] = [
    {
      type: 'ReplicaDeletionRequested',
      data: { replicaId: replica.id, force: command.force, requestedAt: command.now },
    },
  ];
  // A replica that never reached a node has nothing to delete on a back end.
  if (replica.host === '') events.push(...removal(state, replica, null, command.now));
  return events;
};

const completeReplicaDeletion = (
  command: Extract<ReplicaCommand, { type: 'CompleteReplicaDeletion' }>,
  state: ActiveShare,
): Decided[] => {
  if (!claimOpen(state, command.replicaId, command.commandId)) return [];
  return removal(state, replicaOf(state, command.replicaId), command.commandId, command.now);
};

const failReplicaDeletion = (
  command: Extract<ReplicaCommand, { type: 'FailReplicaDeletion' }>,
  state: ActiveShare,
): Decided[] => {
  if (!claimOpen(state, command.replicaId, command.commandId)) return [];
  const replica = replicaOf(state, command.replicaId);
  // A forced deletion removes the replica whatever the back end says (reference 5.6).
  if (replicationOf(state).forcedDeletions.includes(replica.id)) {
    return removal(state, replica, command.commandId, command.now);
  }
  const { type: _type, now, ...data } = command;
  return [{ type: 'ReplicaDeletionFailed', data: { ...data, failedAt: now } }];
};

const promoteReplica = (
  command: Extract<ReplicaCommand, { type: 'PromoteReplica' }>,
  state: ActiveShare,
): Decided[] => {
  const replica = replicaOf(state, command.replicaId);
  // Writable replicas are all active: promoting one changes nothing (reference 5.2).
  if (replica.replicaState === 'active') return [];
  if (replica.status !== 'available') {
    throw invalid(`Share replica ${replica.id} status must be available, not ${replica.status}.`);
  }
  if (replica.replicaState !== 'in_sync' && !command.isAdmin) {
    throw forbidden(
      `Share replica ${replica.id} is ${String(replica.replicaState)}: only an admin may promote it.`,
    );
  }
  requireNotBusy(state);
  // A promotion ends the promoted replica's snapshot operations in error (reference 5.4
  // step 4): it waits for them instead.
  const snapshot = state.snapshots.find((s) =>
    s.instances.some(
      (i) =>
        i.shareInstanceId === replica.id && (i.status === 'creating' || i.status === 'deleting'),
    ),
  );
  if (snapshot) {
    throw invalid(
      `Share replica ${replica.id} is busy with snapshot ${snapshot.id}: promote it once the snapshot is available or deleted.`,
    );
  }
  if (applyingRulesOn(state, replica)) {
    throw invalid(
      `Share replica ${replica.id} is busy applying access rules: promote it once they are applied.`,
    );
  }
  return [
    {
      type: 'ReplicaPromotionRequested',
      data: { replicaId: replica.id, requestedAt: command.now },
    },
  ];
};

const completeReplicaPromotion = (
  command: Extract<ReplicaCommand, { type: 'CompleteReplicaPromotion' }>,
  state: ActiveShare,
): Decided[] => {
  if (!claimOpen(state, command.replicaId, command.commandId)) return [];
  const known = new Set(state.instances.map((i) => i.id));
  const listed = new Set(command.replicas.map((r) => r.replicaId));
  const replicas = command.replicas
    .filter((r) => known.has(r.replicaId) && r.replicaId !== command.replicaId)
    .map((r) => ({ ...r, replicaState: r.replicaState ?? stateOf(state, r.replicaId) }));
  // Readable and dr shares keep one active replica: a former active the driver did not
  // report on is out of sync until refreshed (reference 5.4 step 5).
  for (const instance of state.instances) {
    if (instance.replicaState !== 'active' || listed.has(instance.id)) continue;
    if (instance.id !== command.replicaId) {
      replicas.push({ replicaId: instance.id, replicaState: 'out_of_sync' });
    }
  }
  const promoted = command.replicas.find((r) => r.replicaId === command.replicaId);
  return [
    {
      type: 'ReplicaPromoted',
      data: {
        replicaId: command.replicaId,
        commandId: command.commandId,
        replicas: [
          ...replicas.map((r) => ({
            replicaId: r.replicaId,
            replicaState: r.replicaState,
            ...(r.exportLocations && { exportLocations: r.exportLocations }),
          })),
          {
            replicaId: command.replicaId,
            replicaState: 'active',
            ...(promoted?.exportLocations && { exportLocations: promoted.exportLocations }),
          },
        ],
        promotedAt: command.now,
      },
    },
  ];
};

const failReplicaPromotion = (
  command: Extract<ReplicaCommand, { type: 'FailReplicaPromotion' }>,
  state: ActiveShare,
): Decided[] => {
  if (!claimOpen(state, command.replicaId, command.commandId)) return [];
  const { type: _type, now, ...data } = command;
  return [{ type: 'ReplicaPromotionFailed', data: { ...data, failedAt: now } }];
};

const resyncReplica = (
  command: Extract<ReplicaCommand, { type: 'ResyncReplica' }>,
  state: ActiveShare,
): Decided[] => {
  const replica = replicaOf(state, command.replicaId);
  if (replica.replicaState === 'active') return [];
  if (replica.host === '') throw invalid(`Share replica ${replica.id} has no host.`);
  return [
    {
      type: 'ReplicaResyncRequested',
      data: { replicaId: replica.id, requestedAt: command.now },
    },
  ];
};

const refreshReplicaState = (
  command: Extract<ReplicaCommand, { type: 'RefreshReplicaState' }>,
  state: ActiveShare,
): Decided[] => {
  const replica = state.instances.find((i) => i.id === command.replicaId);
  if (!replica || replica.replicaState === null || replica.replicaState === 'active') return [];
  if (TRANSITIONAL_STATUSES.has(replica.status) || replica.status === 'replication_change') {
    return [];
  }
  if (replica.pendingOperation) return [];
  const hasActive = state.instances.some((i) => i.replicaState === 'active');
  const { outcome } = command;
  const failed = outcome === 'failed';
  const replicaState: ReplicaState = !hasActive || outcome === 'failed' ? 'error' : outcome;
  const statusError = failed && hasActive;
  if (replicaState === replica.replicaState && (!statusError || replica.status === 'error')) {
    return [];
  }
  return [
    {
      type: 'ReplicaStateRefreshed',
      data: { replicaId: replica.id, replicaState, statusError, refreshedAt: command.now },
    },
  ];
};

const resetReplicaStatus = (
  command: Extract<ReplicaCommand, { type: 'ResetReplicaStatus' }>,
  state: ActiveShare,
): Decided[] => {
  const replica = replicaOf(state, command.replicaId);
  if (!RESETTABLE_STATUSES.includes(command.status)) {
    throw invalidState(RESETTABLE_STATUSES);
  }
  return [
    {
      type: 'ShareStatusReset',
      data: { instanceId: replica.id, status: command.status, resetAt: command.now },
    },
  ];
};

const resetReplicaState = (
  command: Extract<ReplicaCommand, { type: 'ResetReplicaState' }>,
  state: ActiveShare,
): Decided[] => {
  const replica = replicaOf(state, command.replicaId);
  if (!REPLICA_STATES.includes(command.replicaState)) {
    throw invalid(`Invalid replica_state provided: ${command.replicaState}.`);
  }
  return [
    {
      type: 'ReplicaStateReset',
      data: {
        replicaId: replica.id,
        replicaState: command.replicaState,
        resetAt: command.now,
      },
    },
  ];
};

/** Share replicas (reference 2.3, 3.7 and 5): one instance per replica, in the share's stream. */
export const decideReplica = (command: ReplicaCommand, state: ActiveShare): Decided[] => {
  switch (command.type) {
    case 'RequestReplica':
      return requestReplica(command, state);
    case 'ScheduleReplica':
      return scheduleReplica(command, state);
    case 'FailReplicaScheduling':
      return failReplicaScheduling(command, state);
    case 'CompleteReplicaCreation':
      return completeReplicaCreation(command, state);
    case 'FailReplicaCreation':
      return failReplicaCreation(command, state);
    case 'DeleteReplica':
      return deleteReplica(command, state);
    case 'CompleteReplicaDeletion':
      return completeReplicaDeletion(command, state);
    case 'FailReplicaDeletion':
      return failReplicaDeletion(command, state);
    case 'PromoteReplica':
      return promoteReplica(command, state);
    case 'CompleteReplicaPromotion':
      return completeReplicaPromotion(command, state);
    case 'FailReplicaPromotion':
      return failReplicaPromotion(command, state);
    case 'ResyncReplica':
      return resyncReplica(command, state);
    case 'RefreshReplicaState':
      return refreshReplicaState(command, state);
    case 'ResetReplicaStatus':
      return resetReplicaStatus(command, state);
    case 'ResetReplicaState':
      return resetReplicaState(command, state);
  }
};

const stateOf = (state: ActiveShare, replicaId: string): ReplicaState =>
  state.instances.find((i) => i.id === replicaId)?.replicaState ?? 'out_of_sync';
