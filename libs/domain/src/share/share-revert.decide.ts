import { conflict, invalid } from '../shared/domain-error.js';
import { instanceAccessRulesStatus } from './share-access.state.js';
import { isBusyTaskState } from './share-migration.types.js';
import type { RevertCommand } from './share-revert.commands.js';
import type { RevertEvent } from './share-revert.events.js';
import {
  snapshotAggregateStatus,
  type SnapshotInstanceState,
  type SnapshotState,
} from './share-snapshot.state.js';
import { preferredInstance, type ActiveShare, type ShareInstanceState } from './share.state.js';

/** The snapshot Manila calls the latest: the one created last (ties: the one recorded last). */
export const latestSnapshotOf = (state: ActiveShare): SnapshotState | undefined =>
  state.snapshots.reduce<SnapshotState | undefined>(
    (latest, s) => (!latest || s.createdAt >= latest.createdAt ? s : latest),
    undefined,
  );

const hasReplicas = (state: ActiveShare): boolean =>
  state.instances.filter((i) => i.replicaState !== null).length > 1;

/**
 * Where the revert runs: the share's instance, or for a share with replicas its active replica
 * (which must be available) and that replica's snapshot instance (reference 5.8).
 */
const revertTarget = (
  state: ActiveShare,
  snapshot: SnapshotState,
): { instance: ShareInstanceState; snapshotInstance: SnapshotInstanceState } => {
  if (hasReplicas(state)) {
    const active = state.instances.find(
      (i) => i.replicaState === 'active' && i.status === 'available',
    );
    if (!active) throw invalid(`Share ${state.id} has no active replica in available state.`);
    const snapshotInstance = snapshot.instances.find((i) => i.shareInstanceId === active.id);
    if (!snapshotInstance) {
      throw invalid(
        `Share ${state.id} has no snapshot ${snapshot.id} associated with its active replica.`,
      );
    }
    return { instance: active, snapshotInstance };
  }
  const instance = preferredInstance(state.instances) as ShareInstanceState;
  const snapshotInstance =
    snapshot.instances.find((i) => i.shareInstanceId === instance.id) ?? snapshot.instances[0];
  if (!snapshotInstance) throw invalid(`Snapshot ${snapshot.id} has no instance to restore.`);
  return { instance, snapshotInstance };
};

/** Manila's checks of the `revert` action (api/v2/shares.py), in its order. */
const revertShareToSnapshot = (
  command: Extract<RevertCommand, { type: 'RevertShareToSnapshot' }>,
  state: ActiveShare,
): RevertEvent[] => {
  const { snapshotId } = command;
  if (!state.capabilities?.revertToSnapshotSupport) {
    throw invalid(
      `Share ${state.id} may not be reverted to snapshot ${snapshotId}, because the share does not have that capability.`,
    );
  }
  const snapshot = state.snapshots.find((s) => s.id === snapshotId);
  if (!snapshot) {
    throw invalid(`Snapshot ${snapshotId} is not associated with share ${state.id}.`);
  }
  const status = preferredInstance(state.instances)?.status;
  if (status !== 'available') {
    throw conflict(
      `Share ${state.id} is in '${String(status)}' state, but it must be in 'available' state to be reverted to a snapshot.`,
    );
  }
  const replicaStateOf = (id: string) => state.instances.find((i) => i.id === id)?.replicaState;
  const snapshotStatus = snapshotAggregateStatus(snapshot, replicaStateOf);
  if (snapshotStatus !== 'available') {
    throw conflict(
      `Snapshot ${snapshotId} is in '${String(snapshotStatus)}' state, but it must be in 'available' state to be restored.`,
    );
  }
  if (isBusyTaskState(state.taskState)) {
    throw conflict(`Share ${state.id} may not be reverted while it has an active task.`);
  }
  const latest = latestSnapshotOf(state) as SnapshotState;
  if (latest.id !== snapshotId) {
    throw conflict(
      `Snapshot ${snapshotId} may not be restored because it is not the most recent snapshot of share ${state.id}. Currently the latest snapshot is ${latest.id}.`,
    );
  }
  if (
    state.instances.some((i) => instanceAccessRulesStatus(state.accessRules, i.id) !== 'active')
  ) {
    throw conflict(
      `Snapshot ${snapshotId} belongs to a share ${state.id} which has access rules that are not active.`,
    );
  }
  const { instance, snapshotInstance } = revertTarget(state, snapshot);
  return [
    {
      type: 'ShareRevertRequested',
      data: {
        snapshotId,
        instanceId: instance.id,
        snapshotInstanceId: snapshotInstance.id,
        requestedAt: command.now,
      },
    },
  ];
};

/** The revert claim `commandId` holds on the instance, if it is still open. */
const openRevert = (state: ActiveShare, instanceId: string, commandId: string) => {
  const pending = state.instances.find((i) => i.id === instanceId)?.pendingOperation;
  return pending?.commandId === commandId && pending.operation === 'revert_to_snapshot'
    ? pending
    : undefined;
};

const completeShareRevert = (
  command: Extract<RevertCommand, { type: 'CompleteShareRevert' }>,
  state: ActiveShare,
): RevertEvent[] => {
  const pending = openRevert(state, command.instanceId, command.commandId);
  const snapshot = state.snapshots.find((s) => s.id === pending?.snapshotId);
  if (!pending || !snapshot) return [];
  return [
    {
      type: 'ShareReverted',
      data: {
        instanceId: command.instanceId,
        commandId: command.commandId,
        snapshotId: snapshot.id,
        snapshotInstanceId: pending.snapshotInstanceId ?? '',
        size: snapshot.size,
        revertedAt: command.now,
      },
    },
  ];
};

const failShareRevert = (
  command: Extract<RevertCommand, { type: 'FailShareRevert' }>,
  state: ActiveShare,
): RevertEvent[] => {
  const pending = openRevert(state, command.instanceId, command.commandId);
  if (!pending) return [];
  return [
    {
      type: 'ShareRevertFailed',
      data: {
        instanceId: command.instanceId,
        commandId: command.commandId,
        snapshotId: pending.snapshotId ?? '',
        snapshotInstanceId: pending.snapshotInstanceId ?? '',
        message: command.message,
        failedAt: command.now,
      },
    },
  ];
};

/** Revert to snapshot (2.27, reference 3.4): the latest snapshot only, on an available share. */
export const decideRevert = (command: RevertCommand, state: ActiveShare): RevertEvent[] => {
  switch (command.type) {
    case 'RevertShareToSnapshot':
      return revertShareToSnapshot(command, state);
    case 'CompleteShareRevert':
      return completeShareRevert(command, state);
    case 'FailShareRevert':
      return failShareRevert(command, state);
  }
};
