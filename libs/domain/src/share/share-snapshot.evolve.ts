import { applyMetadataChange } from './share-metadata.js';
import { settlePending } from './share-pending.js';
import type { ReplicatedSnapshotEvent } from './share-replicated-snapshot.events.js';
import type { SnapshotEvent } from './share-snapshot.events.js';
import type { SnapshotState } from './share-snapshot.state.js';
import { newSnapshot, updateSnapshot, updateSnapshotInstance } from './share-snapshot.updates.js';
import type { ActiveShare } from './share.state.js';

export const evolveSnapshot = (
  state: ActiveShare,
  event: Exclude<SnapshotEvent, ReplicatedSnapshotEvent>,
): ActiveShare => {
  switch (event.type) {
    case 'SnapshotRequested': {
      const d = event.data;
      const snapshot: SnapshotState = {
        ...newSnapshot(d, d.instances, 'creating'),
        ...(d.activeInstanceId !== undefined && { activeInstanceId: d.activeInstanceId }),
      };
      return { ...state, snapshots: [...state.snapshots, snapshot] };
    }
    // A snapshot deleted (forced) while it was being created stays `deleting`.
    case 'SnapshotInstanceCreated': {
      const d = event.data;
      return updateSnapshotInstance(
        settlePending(state, d.commandId, d.createdAt),
        d.snapshotId,
        d.snapshotInstanceId,
        d.createdAt,
        (i) => ({
          ...i,
          status: i.status === 'deleting' ? 'deleting' : d.status,
          progress: d.progress,
          providerLocation: d.providerLocation,
          ...(d.exportLocations && { exportLocations: d.exportLocations }),
        }),
      );
    }
    case 'SnapshotInstanceCreationFailed': {
      const d = event.data;
      return updateSnapshotInstance(
        settlePending(state, d.commandId, d.failedAt),
        d.snapshotId,
        d.snapshotInstanceId,
        d.failedAt,
        (i) => ({ ...i, status: i.status === 'deleting' ? 'deleting' : 'error' }),
      );
    }
    case 'SnapshotUpdated': {
      const d = event.data;
      return updateSnapshot(state, d.snapshotId, (s) => ({
        ...s,
        name: d.name === undefined ? s.name : d.name,
        description: d.description === undefined ? s.description : d.description,
        updatedAt: d.updatedAt,
      }));
    }
    case 'SnapshotMetadataChanged': {
      const d = event.data;
      return updateSnapshot(state, d.snapshotId, (s) => ({
        ...s,
        metadata: applyMetadataChange(s.metadata ?? {}, d),
        updatedAt: d.updatedAt,
      }));
    }
    case 'SnapshotStatusReset': {
      const d = event.data;
      return updateSnapshotInstance(state, d.snapshotId, d.snapshotInstanceId, d.resetAt, (i) => ({
        ...i,
        status: d.status,
      }));
    }
    case 'SnapshotDeletionRequested': {
      const d = event.data;
      const targets = new Set(d.snapshotInstanceIds);
      return updateSnapshot(state, d.snapshotId, (s) => ({
        ...s,
        deletionForced: d.force,
        ...(d.activeInstanceId !== undefined && { activeInstanceId: d.activeInstanceId }),
        updatedAt: d.requestedAt,
        instances: s.instances.map((i) =>
          targets.has(i.id) ? { ...i, status: 'deleting', updatedAt: d.requestedAt } : i,
        ),
      }));
    }
    case 'SnapshotInstanceDeleted': {
      const d = event.data;
      const settled = d.commandId ? settlePending(state, d.commandId, d.deletedAt) : state;
      return updateSnapshot(settled, d.snapshotId, (s) => ({
        ...s,
        updatedAt: d.deletedAt,
        instances: s.instances.filter((i) => i.id !== d.snapshotInstanceId),
      }));
    }
    case 'SnapshotInstanceDeletionFailed': {
      const d = event.data;
      return updateSnapshotInstance(
        settlePending(state, d.commandId, d.failedAt),
        d.snapshotId,
        d.snapshotInstanceId,
        d.failedAt,
        (i) => ({ ...i, status: 'error_deleting' }),
      );
    }
    case 'SnapshotDeleted':
      return {
        ...state,
        snapshots: state.snapshots.filter((s) => s.id !== event.data.snapshotId),
      };
  }
};
