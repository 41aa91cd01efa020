import { notFound } from '../shared/domain-error.js';
import type { ReplicatedSnapshotCommand } from './share-replicated-snapshot.commands.js';
import type { ReplicatedSnapshotEvent } from './share-replicated-snapshot.events.js';
import type { SnapshotDeleted, SnapshotInstanceDeleted } from './share-snapshot.events.js';
import type { SnapshotInstanceState, SnapshotState } from './share-snapshot.state.js';
import type { ShareInstanceState, ActiveShare } from './share.state.js';

type Decided = ReplicatedSnapshotEvent | SnapshotInstanceDeleted | SnapshotDeleted;

const snapshotOf = (state: ActiveShare, snapshotId: string): SnapshotState => {
  const snapshot = state.snapshots.find((s) => s.id === snapshotId);
  if (!snapshot) throw notFound(`Snapshot ${snapshotId} could not be found.`);
  return snapshot;
};

/** The instance (the active replica) holding the node's open claim on the snapshot, if any. */
const claimHolder = (state: ActiveShare, snapshotId: string): ShareInstanceState | undefined =>
  state.instances.find((i) => i.pendingOperation?.snapshotId === snapshotId);

const claimOpen = (state: ActiveShare, snapshotId: string, commandId: string): boolean =>
  claimHolder(state, snapshotId)?.pendingOperation?.commandId === commandId;

/** Whether the instance is on the replica whose node creates and deletes the whole snapshot. */
const onCoordinator = (
  state: ActiveShare,
  snapshot: SnapshotState,
  instance: SnapshotInstanceState,
): boolean =>
  snapshot.activeInstanceId !== undefined
    ? instance.shareInstanceId === snapshot.activeInstanceId
    : state.instances.find((r) => r.id === instance.shareInstanceId)?.replicaState === 'active';

/**
 * Whether the node of the instance's replica refreshes it now (reference 5.7): it is `creating`
 * or `deleting` on a replica other than the one whose node coordinates the snapshot (for
 * writable shares that includes the other active replicas), and that node has answered: its
 * claim is closed and its own instance has left the same transition. Its answer comes first.
 */
export const replicaSnapshotRefreshIsDue = (
  state: ActiveShare,
  snapshot: SnapshotState,
  instance: SnapshotInstanceState,
): boolean => {
  if (instance.status !== 'creating' && instance.status !== 'deleting') return false;
  const replica = state.instances.find((i) => i.id === instance.shareInstanceId);
  if (!replica || replica.replicaState === null || onCoordinator(state, snapshot, instance)) {
    return false;
  }
  if (claimHolder(state, snapshot.id)) return false;
  return !snapshot.instances.some(
    (i) => i.status === instance.status && onCoordinator(state, snapshot, i),
  );
};

/** The listed instances are gone; the snapshot with them when none is left. */
const removal = (
  snapshot: SnapshotState,
  commandId: string,
  snapshotInstanceIds: readonly string[],
  now: string,
): Decided[] => {
  const known = snapshotInstanceIds.filter((id) => snapshot.instances.some((i) => i.id === id));
  const events: Decided[] = [
    {
      type: 'ReplicatedSnapshotInstancesDeleted',
      data: { snapshotId: snapshot.id, commandId, snapshotInstanceIds: known, deletedAt: now },
    },
  ];
  if (snapshot.instances.every((i) => known.includes(i.id))) {
    events.push({
      type: 'SnapshotDeleted',
      data: { snapshotId: snapshot.id, projectId: snapshot.projectId, deletedAt: now },
    });
  }
  return events;
};

const completeReplicatedSnapshotCreation = (
  command: Extract<ReplicatedSnapshotCommand, { type: 'CompleteReplicatedSnapshotCreation' }>,
  state: ActiveShare,
): Decided[] => {
  const { snapshotId, commandId } = command;
  if (!claimOpen(state, snapshotId, commandId)) return [];
  const snapshot = snapshotOf(state, snapshotId);
  const instances = command.instances.filter((outcome) =>
    snapshot.instances.some((i) => i.id === outcome.snapshotInstanceId),
  );
  return [
    {
      type: 'ReplicatedSnapshotCreated',
      data: { snapshotId, commandId, instances, createdAt: command.now },
    },
  ];
};

const failReplicatedSnapshotCreation = (
  command: Extract<ReplicatedSnapshotCommand, { type: 'FailReplicatedSnapshotCreation' }>,
  state: ActiveShare,
): Decided[] => {
  const { snapshotId, commandId, message } = command;
  if (!claimOpen(state, snapshotId, commandId)) return [];
  return [
    {
      type: 'ReplicatedSnapshotCreationFailed',
      data: { snapshotId, commandId, message, failedAt: command.now },
    },
  ];
};

const completeReplicatedSnapshotDeletion = (
  command: Extract<ReplicatedSnapshotCommand, { type: 'CompleteReplicatedSnapshotDeletion' }>,
  state: ActiveShare,
): Decided[] => {
  const { snapshotId, commandId } = command;
  if (!claimOpen(state, snapshotId, commandId)) return [];
  const snapshot = snapshotOf(state, snapshotId);
  return removal(snapshot, commandId, command.snapshotInstanceIds, command.now);
};

const failReplicatedSnapshotDeletion = (
  command: Extract<ReplicatedSnapshotCommand, { type: 'FailReplicatedSnapshotDeletion' }>,
  state: ActiveShare,
): Decided[] => {
  const { snapshotId, commandId, message } = command;
  if (!claimOpen(state, snapshotId, commandId)) return [];
  const snapshot = snapshotOf(state, snapshotId);
  // A forced deletion removes the snapshot whatever the back end says (reference 5.8).
  if (snapshot.deletionForced) {
    const all = snapshot.instances.map((i) => i.id);
    return removal(snapshot, commandId, all, command.now);
  }
  return [
    {
      type: 'ReplicatedSnapshotDeletionFailed',
      data: { snapshotId, commandId, message, failedAt: command.now },
    },
  ];
};

const refreshReplicaSnapshot = (
  command: Extract<ReplicatedSnapshotCommand, { type: 'RefreshReplicaSnapshot' }>,
  state: ActiveShare,
): Decided[] => {
  return refresh(command, state);
};

/**
 * Snapshots of a share with replicas (reference 5.8): the node of the active replica creates
 * and deletes every instance in one driver call; each non-active replica's node then refreshes
 * the instances on its replica that the call left `creating` or `deleting` (reference 5.7).
 */
export const decideReplicatedSnapshot = (
  command: ReplicatedSnapshotCommand,
  state: ActiveShare,
): Decided[] => {
  switch (command.type) {
    case 'CompleteReplicatedSnapshotCreation':
      return completeReplicatedSnapshotCreation(command, state);
    case 'FailReplicatedSnapshotCreation':
      return failReplicatedSnapshotCreation(command, state);
    case 'CompleteReplicatedSnapshotDeletion':
      return completeReplicatedSnapshotDeletion(command, state);
    case 'FailReplicatedSnapshotDeletion':
      return failReplicatedSnapshotDeletion(command, state);
    case 'RefreshReplicaSnapshot':
      return refreshReplicaSnapshot(command, state);
  }
};

/** Manila's _update_replica_snapshot (reference 5.7), for an instance still in transition. */
const refresh = (
  command: Extract<ReplicatedSnapshotCommand, { type: 'RefreshReplicaSnapshot' }>,
  state: ActiveShare,
): Decided[] => {
  const { snapshotId, snapshotInstanceId, outcome, now } = command;
  const snapshot = state.snapshots.find((s) => s.id === snapshotId);
  const instance = snapshot?.instances.find((i) => i.id === snapshotInstanceId);
  if (!snapshot || !instance || !replicaSnapshotRefreshIsDue(state, snapshot, instance)) return [];
  const refreshed = (status: 'available' | 'creating' | 'error', progress: string): Decided[] =>
    status === instance.status && progress === instance.progress
      ? []
      : [
          {
            type: 'ReplicaSnapshotRefreshed',
            data: { snapshotId, snapshotInstanceId, status, progress, refreshedAt: now },
          },
        ];
  if (outcome === 'failed') return refreshed('error', instance.progress);
  if (outcome === 'not_found') {
    if (instance.status === 'creating') return refreshed('error', instance.progress);
    const events: Decided[] = [
      {
        type: 'SnapshotInstanceDeleted',
        data: { snapshotId, snapshotInstanceId, commandId: null, deletedAt: now },
      },
    ];
    if (snapshot.instances.length === 1) {
      events.push({
        type: 'SnapshotDeleted',
        data: { snapshotId, projectId: snapshot.projectId, deletedAt: now },
      });
    }
    return events;
  }
  // A status for an instance being deleted: the deletion goes on at the next refresh.
  if (instance.status === 'deleting') return [];
  return refreshed(outcome.status, outcome.progress);
};
