import { settlePending } from './share-pending.js';
import type { SnapshotManageEvent } from './share-snapshot-manage.events.js';
import type { SnapshotState, SnapshotStatus } from './share-snapshot.state.js';
import { newSnapshot, updateSnapshot, updateSnapshotInstance } from './share-snapshot.updates.js';
import type { ActiveShare } from './share.state.js';

const withStatus = (
  state: ActiveShare,
  d: { snapshotId: string; snapshotInstanceId: string },
  at: string,
  status: SnapshotStatus,
): ActiveShare =>
  updateSnapshotInstance(state, d.snapshotId, d.snapshotInstanceId, at, (i) => ({ ...i, status }));

export const evolveSnapshotManage = (
  state: ActiveShare,
  event: SnapshotManageEvent,
): ActiveShare => {
  switch (event.type) {
    case 'SnapshotManageRequested': {
      const d = event.data;
      const instances = [{ id: d.snapshotInstanceId, shareInstanceId: d.shareInstanceId }];
      const snapshot: SnapshotState = {
        ...newSnapshot(d, instances, 'manage_starting', d.providerLocation),
        metadata: d.metadata,
        manageRequest: { providerLocation: d.providerLocation, driverOptions: d.driverOptions },
      };
      return { ...state, snapshots: [...state.snapshots, snapshot] };
    }
    case 'SnapshotManaged': {
      const d = event.data;
      const managed = updateSnapshotInstance(
        settlePending(state, d.commandId, d.managedAt),
        d.snapshotId,
        d.snapshotInstanceId,
        d.managedAt,
        (i) => ({
          ...i,
          status: 'available',
          progress: '100%',
          providerLocation: d.providerLocation,
          exportLocations: d.exportLocations,
        }),
      );
      return updateSnapshot(managed, d.snapshotId, (s) => ({ ...s, size: d.size }));
    }
    case 'SnapshotManageFailed': {
      const d = event.data;
      const failed = withStatus(
        settlePending(state, d.commandId, d.failedAt),
        d,
        d.failedAt,
        'manage_error',
      );
      return updateSnapshot(failed, d.snapshotId, (s) => ({ ...s, size: 1 }));
    }
    case 'SnapshotUnmanageRequested':
      return withStatus(state, event.data, event.data.requestedAt, 'unmanage_starting');
    case 'SnapshotUnmanaged':
      return settlePending(state, event.data.commandId, event.data.unmanagedAt);
    case 'SnapshotUnmanageFailed': {
      const d = event.data;
      return withStatus(
        settlePending(state, d.commandId, d.failedAt),
        d,
        d.failedAt,
        'unmanage_error',
      );
    }
  }
};
