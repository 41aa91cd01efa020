import { conflict, invalid, invalidState, notFound } from '../shared/domain-error.js';
import { refuseIfBusy } from './share-busy.js';
import { metadataChange } from './share-metadata.js';
import type { ReplicatedSnapshotCommand } from './share-replicated-snapshot.commands.js';
import { promotionInProgress, replicasOf } from './share-replica.state.js';
import type { SnapshotCommand } from './share-snapshot.commands.js';
import type { SnapshotEvent } from './share-snapshot.events.js';
import {
  RESETTABLE_SNAPSHOT_STATUSES,
  preferredSnapshotInstance,
  snapshotAggregateStatus,
  snapshotInstanceIdOf,
  type SnapshotInstanceState,
  type SnapshotState,
} from './share-snapshot.state.js';
import { preferredInstance, type ShareInstanceState, type ActiveShare } from './share.state.js';

const DELETABLE = ['available', 'error'];

export const replicaStateIn =
  (state: ActiveShare) =>
  (shareInstanceId: string): ActiveShare['instances'][number]['replicaState'] | undefined =>
    state.instances.find((i) => i.id === shareInstanceId)?.replicaState;

const snapshotOf = (state: ActiveShare, snapshotId: string): SnapshotState => {
  const snapshot = state.snapshots.find((s) => s.id === snapshotId);
  if (!snapshot) throw notFound(`Snapshot ${snapshotId} could not be found.`);
  return snapshot;
};

/** The snapshot instance an outcome is about, if the node's claim on it is still open. */
const claimedInstance = (
  state: ActiveShare,
  snapshotId: string,
  snapshotInstanceId: string,
  commandId: string,
): SnapshotInstanceState | undefined => {
  const instance = state.snapshots
    .find((s) => s.id === snapshotId)
    ?.instances.find((i) => i.id === snapshotInstanceId);
  const shareInstance = state.instances.find((i) => i.id === instance?.shareInstanceId);
  return shareInstance?.pendingOperation?.commandId === commandId ? instance : undefined;
};

const removal = (
  state: ActiveShare,
  snapshotId: string,
  snapshotInstanceId: string,
  commandId: string,
  now: string,
): SnapshotEvent[] => {
  const snapshot = snapshotOf(state, snapshotId);
  const events: SnapshotEvent[] = [
    {
      type: 'SnapshotInstanceDeleted',
      data: { snapshotId, snapshotInstanceId, commandId, deletedAt: now },
    },
  ];
  if (snapshot.instances.length === 1) {
    events.push({
      type: 'SnapshotDeleted',
      data: { snapshotId, projectId: snapshot.projectId, deletedAt: now },
    });
  }
  return events;
};

/**
 * A share with replicas has its snapshots created and deleted by the node of its active replica
 * in one driver call (Manila's has_replicas, reference 5.8): that replica, placed and accepted
 * by `holds` (available for a new snapshot, holding an instance of it for a deletion).
 * Undefined for a share without replicas.
 */
const activeReplicaFor = (
  state: ActiveShare,
  holds: (replica: ShareInstanceState) => boolean,
): string | undefined => {
  if (replicasOf(state).length < 2) return undefined;
  return state.instances.find((i) => i.replicaState === 'active' && i.host !== '' && holds(i))?.id;
};

const requestSnapshot = (
  command: Extract<SnapshotCommand, { type: 'RequestSnapshot' }>,
  state: ActiveShare,
): SnapshotEvent[] => {
  if (state.snapshots.some((s) => s.id === command.snapshotId)) {
    throw conflict(`Snapshot ${command.snapshotId} exists already.`);
  }
  if (!state.capabilities?.snapshotSupport) {
    throw invalid(
      `Snapshots cannot be created for share ${state.id}: its type does not support them.`,
    );
  }
  const status = preferredInstance(state.instances)?.status;
  if (status !== 'available') {
    throw invalid(`Share ${state.id} status must be available, not ${String(status)}.`);
  }
  refuseIfBusy(state);
  const activeInstanceId = activeReplicaFor(state, (i) => i.status === 'available');
  return [
    {
      type: 'SnapshotRequested',
      data: {
        snapshotId: command.snapshotId,
        projectId: command.projectId,
        userId: command.userId,
        name: command.name,
        description: command.description,
        size: state.size,
        instances: state.instances.map((i) => ({
          id: snapshotInstanceIdOf(command.snapshotId, i.id),
          shareInstanceId: i.id,
        })),
        ...(activeInstanceId !== undefined && { activeInstanceId }),
        createdAt: command.now,
      },
    },
    ...metadataEvents(command.snapshotId, {}, command.metadata ?? {}, [], command.now),
  ];
};

const changeSnapshotMetadata = (
  command: Extract<SnapshotCommand, { type: 'ChangeSnapshotMetadata' }>,
  state: ActiveShare,
): SnapshotEvent[] => {
  const snapshot = snapshotOf(state, command.snapshotId);
  return metadataEvents(
    snapshot.id,
    snapshot.metadata ?? {},
    command.set,
    command.unset,
    command.now,
  );
};

/** The driver's answer for a claimed snapshot instance: created, or failed with a message. */
const settleSnapshotInstanceCreation = (
  command: Extract<
    SnapshotCommand,
    { type: 'CompleteSnapshotInstanceCreation' | 'FailSnapshotInstanceCreation' }
  >,
  state: ActiveShare,
): SnapshotEvent[] => {
  const { snapshotId, snapshotInstanceId, commandId } = command;
  if (!claimedInstance(state, snapshotId, snapshotInstanceId, commandId)) return [];
  const claim = { snapshotId, snapshotInstanceId, commandId };
  if (command.type === 'FailSnapshotInstanceCreation') {
    return [
      {
        type: 'SnapshotInstanceCreationFailed',
        data: { ...claim, message: command.message, failedAt: command.now },
      },
    ];
  }
  return [
    {
      type: 'SnapshotInstanceCreated',
      data: {
        ...claim,
        status: command.status,
        progress: command.progress,
        providerLocation: command.providerLocation,
        // Kept only for a share whose type mounts snapshots, as Manila's manager does.
        ...(state.capabilities?.mountSnapshotSupport &&
          command.exportLocations?.length && { exportLocations: command.exportLocations }),
        createdAt: command.now,
      },
    },
  ];
};

const updateSnapshot = (
  command: Extract<SnapshotCommand, { type: 'UpdateSnapshot' }>,
  state: ActiveShare,
): SnapshotEvent[] => {
  snapshotOf(state, command.snapshotId);
  if (command.name === undefined && command.description === undefined) return [];
  return [
    {
      type: 'SnapshotUpdated',
      data: {
        snapshotId: command.snapshotId,
        ...(command.name !== undefined && { name: command.name }),
        ...(command.description !== undefined && { description: command.description }),
        updatedAt: command.now,
      },
    },
  ];
};

const resetSnapshotStatus = (
  command: Extract<SnapshotCommand, { type: 'ResetSnapshotStatus' }>,
  state: ActiveShare,
): SnapshotEvent[] => {
  const snapshot = snapshotOf(state, command.snapshotId);
  if (!RESETTABLE_SNAPSHOT_STATUSES.includes(command.status)) {
    throw invalidState(RESETTABLE_SNAPSHOT_STATUSES);
  }
  const instance =
    command.snapshotInstanceId === undefined
      ? preferredSnapshotInstance(snapshot, replicaStateIn(state))
      : snapshot.instances.find((i) => i.id === command.snapshotInstanceId);
  if (!instance) throw notFound(`Snapshot ${snapshot.id} could not be found.`);
  return [
    {
      type: 'SnapshotStatusReset',
      data: {
        snapshotId: snapshot.id,
        snapshotInstanceId: instance.id,
        status: command.status,
        resetAt: command.now,
      },
    },
  ];
};

const deleteSnapshot = (
  command: Extract<SnapshotCommand, { type: 'DeleteSnapshot' }>,
  state: ActiveShare,
): SnapshotEvent[] => {
  const snapshot = snapshotOf(state, command.snapshotId);
  // The promotion would end the promoted replica's copy in error instead of deleted.
  if (promotionInProgress(state)) {
    throw invalid(
      `Snapshot ${snapshot.id} cannot be deleted while a replica of share ${state.id} is being promoted.`,
    );
  }
  const status = snapshotAggregateStatus(snapshot, replicaStateIn(state));
  if (!command.force && !DELETABLE.includes(status ?? '')) {
    throw invalid(`Snapshot status must be one of ${DELETABLE.join(', ')}, not ${String(status)}.`);
  }
  const activeInstanceId = activeReplicaFor(state, (replica) =>
    snapshot.instances.some((i) => i.shareInstanceId === replica.id),
  );
  return [
    {
      type: 'SnapshotDeletionRequested',
      data: {
        snapshotId: snapshot.id,
        snapshotInstanceIds: snapshot.instances.map((i) => i.id),
        force: command.force,
        ...(activeInstanceId !== undefined && { activeInstanceId }),
        requestedAt: command.now,
      },
    },
  ];
};

const completeSnapshotInstanceDeletion = (
  command: Extract<SnapshotCommand, { type: 'CompleteSnapshotInstanceDeletion' }>,
  state: ActiveShare,
): SnapshotEvent[] => {
  const { snapshotId, snapshotInstanceId, commandId } = command;
  if (!claimedInstance(state, snapshotId, snapshotInstanceId, commandId)) return [];
  return removal(state, snapshotId, snapshotInstanceId, commandId, command.now);
};

const failSnapshotInstanceDeletion = (
  command: Extract<SnapshotCommand, { type: 'FailSnapshotInstanceDeletion' }>,
  state: ActiveShare,
): SnapshotEvent[] => {
  const { snapshotId, snapshotInstanceId, commandId } = command;
  if (!claimedInstance(state, snapshotId, snapshotInstanceId, commandId)) return [];
  // A forced deletion removes the snapshot whatever the back end says (reference 2.4).
  if (snapshotOf(state, snapshotId).deletionForced) {
    return removal(state, snapshotId, snapshotInstanceId, commandId, command.now);
  }
  return [
    {
      type: 'SnapshotInstanceDeletionFailed',
      data: {
        snapshotId,
        snapshotInstanceId,
        commandId,
        message: command.message,
        failedAt: command.now,
      },
    },
  ];
};

/** Snapshots of a share (reference 2.4, 3.6): one snapshot instance per share instance. */
export const decideSnapshot = (
  command: Exclude<SnapshotCommand, ReplicatedSnapshotCommand>,
  state: ActiveShare,
): SnapshotEvent[] => {
  switch (command.type) {
    case 'RequestSnapshot':
      return requestSnapshot(command, state);
    case 'ChangeSnapshotMetadata':
      return changeSnapshotMetadata(command, state);
    case 'CompleteSnapshotInstanceCreation':
    case 'FailSnapshotInstanceCreation':
      return settleSnapshotInstanceCreation(command, state);
    case 'UpdateSnapshot':
      return updateSnapshot(command, state);
    case 'ResetSnapshotStatus':
      return resetSnapshotStatus(command, state);
    case 'DeleteSnapshot':
      return deleteSnapshot(command, state);
    case 'CompleteSnapshotInstanceDeletion':
      return completeSnapshotInstanceDeletion(command, state);
    case 'FailSnapshotInstanceDeletion':
      return failSnapshotInstanceDeletion(command, state);
  }
};

const metadataEvents = (
  snapshotId: string,
  current: Readonly<Record<string, string>>,
  set: Record<string, string>,
  unset: readonly string[],
  now: string,
): SnapshotEvent[] => {
  const change = metadataChange(current, set, unset);
  if (!change) return [];
  return [{ type: 'SnapshotMetadataChanged', data: { snapshotId, ...change, updatedAt: now } }];
};
