import { conflict, forbidden, notFound } from '../shared/domain-error.js';
import { validateMetadata } from './share-metadata.js';
import type { SnapshotManageCommand } from './share-snapshot-manage.commands.js';
import type { SnapshotManageEvent } from './share-snapshot-manage.events.js';
import {
  snapshotInstanceIdOf,
  TRANSITIONAL_SNAPSHOT_STATUSES,
  type SnapshotInstanceState,
  type SnapshotState,
} from './share-snapshot.state.js';
import type { ShareEvent } from './share.events.js';
import { preferredInstance, type ActiveShare } from './share.state.js';

type Of<T extends SnapshotManageCommand['type']> = Extract<SnapshotManageCommand, { type: T }>;

const snapshotOf = (state: ActiveShare, snapshotId: string): SnapshotState => {
  const snapshot = state.snapshots.find((s) => s.id === snapshotId);
  if (!snapshot) throw notFound(`Snapshot ${snapshotId} could not be found.`);
  return snapshot;
};

/** The snapshot instance a node's outcome is about, while its claim for `operation` is open. */
const claimed = (
  state: ActiveShare,
  command: { snapshotId: string; snapshotInstanceId: string; commandId: string },
  operation: 'manage_snapshot' | 'unmanage_snapshot',
): SnapshotInstanceState | undefined => {
  const instance = state.snapshots
    .find((s) => s.id === command.snapshotId)
    ?.instances.find((i) => i.id === command.snapshotInstanceId);
  const pending = state.instances.find((i) => i.id === instance?.shareInstanceId)?.pendingOperation;
  return pending?.commandId === command.commandId && pending.operation === operation
    ? instance
    : undefined;
};

const hasReplicas = (state: ActiveShare): boolean => state.instances.length > 1;

/** Manila's share_api.manage_snapshot checks (409 each), then one `manage_starting` instance. */
const manageSnapshot = (command: Of<'ManageSnapshot'>, state: ActiveShare): ShareEvent[] => {
  validateMetadata(command.metadata);
  if (hasReplicas(state)) {
    throw conflict(
      `Share ${state.id} has replicas. Snapshots of this share cannot currently be managed until all replicas are removed.`,
    );
  }
  for (const snapshot of state.snapshots) {
    const taken =
      snapshot.manageRequest?.providerLocation === command.providerLocation ||
      snapshot.instances.some((i) => i.providerLocation === command.providerLocation);
    if (taken) {
      throw conflict(
        `A share snapshot ${snapshot.id} is already managed for provider location ${command.providerLocation}.`,
      );
    }
  }
  const shareInstance = preferredInstance(state.instances);
  if (!shareInstance) throw conflict(`Share ${state.id} has no instance.`);
  return [
    {
      type: 'SnapshotManageRequested',
      data: {
        snapshotId: command.snapshotId,
        snapshotInstanceId: snapshotInstanceIdOf(command.snapshotId, shareInstance.id),
        shareInstanceId: shareInstance.id,
        projectId: command.projectId,
        userId: command.userId,
        name: command.name,
        description: command.description,
        metadata: command.metadata,
        size: state.size,
        providerLocation: command.providerLocation,
        driverOptions: command.driverOptions,
        createdAt: command.now,
      },
    },
  ];
};

/** Manila's refusals of the snapshot `unmanage` action (api/v2/share_snapshots.py), in order. */
const unmanageSnapshot = (command: Of<'UnmanageSnapshot'>, state: ActiveShare): ShareEvent[] => {
  const snapshot = snapshotOf(state, command.snapshotId);
  if (hasReplicas(state)) {
    throw conflict(
      `Share ${state.id} has replicas. Snapshots of this share cannot currently be unmanaged until all replicas are removed.`,
    );
  }
  const instance = snapshot.instances[0];
  if (!instance || TRANSITIONAL_SNAPSHOT_STATUSES.has(instance.status)) {
    throw forbidden(
      `Snapshot with transitional state cannot be unmanaged. Snapshot '${snapshot.id}' is in '${String(instance?.status)}' state.`,
    );
  }
  return [
    {
      type: 'SnapshotUnmanageRequested',
      data: {
        snapshotId: snapshot.id,
        snapshotInstanceId: instance.id,
        shareInstanceId: instance.shareInstanceId,
        requestedAt: command.now,
      },
    },
  ];
};

/** Snapshot manage and unmanage (reference 3.6): the API's checks and the node's outcomes. */
export const decideSnapshotManage = (
  command: SnapshotManageCommand,
  state: ActiveShare,
): ShareEvent[] => {
  switch (command.type) {
    case 'ManageSnapshot':
      return manageSnapshot(command, state);
    case 'UnmanageSnapshot':
      return unmanageSnapshot(command, state);
    case 'CompleteSnapshotManage': {
      const { snapshotId, snapshotInstanceId, commandId } = command;
      if (!claimed(state, command, 'manage_snapshot')) return [];
      const snapshot = snapshotOf(state, snapshotId);
      const managed: SnapshotManageEvent = {
        type: 'SnapshotManaged',
        data: {
          snapshotId,
          snapshotInstanceId,
          commandId,
          // No size from the driver: the share's, as Manila's manager does.
          size: command.size ?? snapshot.size,
          providerLocation: command.providerLocation,
          exportLocations: state.capabilities?.mountSnapshotSupport ? command.exportLocations : [],
          managedAt: command.now,
        },
      };
      return [managed];
    }
    case 'FailSnapshotManage': {
      if (!claimed(state, command, 'manage_snapshot')) return [];
      const { snapshotId, snapshotInstanceId, commandId, message } = command;
      return [
        {
          type: 'SnapshotManageFailed',
          data: { snapshotId, snapshotInstanceId, commandId, message, failedAt: command.now },
        },
      ];
    }
    case 'CompleteSnapshotUnmanage': {
      if (!claimed(state, command, 'unmanage_snapshot')) return [];
      const { snapshotId, snapshotInstanceId, commandId } = command;
      const snapshot = snapshotOf(state, snapshotId);
      return [
        {
          type: 'SnapshotUnmanaged',
          data: { snapshotId, snapshotInstanceId, commandId, unmanagedAt: command.now },
        },
        {
          type: 'SnapshotInstanceDeleted',
          data: { snapshotId, snapshotInstanceId, commandId: null, deletedAt: command.now },
        },
        {
          type: 'SnapshotDeleted',
          data: { snapshotId, projectId: snapshot.projectId, deletedAt: command.now },
        },
      ];
    }
    case 'FailSnapshotUnmanage': {
      if (!claimed(state, command, 'unmanage_snapshot')) return [];
      const { snapshotId, snapshotInstanceId, commandId, message } = command;
      return [
        {
          type: 'SnapshotUnmanageFailed',
          data: { snapshotId, snapshotInstanceId, commandId, message, failedAt: command.now },
        },
      ];
    }
  }
};
