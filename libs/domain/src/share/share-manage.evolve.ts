import { updateInstance } from './share-instance.updates.js';
import type { ManageEvent, ShareManageRequested } from './share-manage.events.js';
import { settlePending } from './share-pending.js';
import { newShareInstance, type ActiveShare, type ShareState } from './share.state.js';
import type { ShareStatus } from './share.types.js';

/** The adopted share as it is asked for: on its pool, `manage_starting`, no size yet. */
const shareManageRequested = ({ data: d }: ShareManageRequested): ActiveShare => ({
  kind: 'active',
  id: d.shareId,
  projectId: d.projectId,
  userId: d.userId,
  name: d.name,
  description: d.description,
  size: 0,
  shareProto: d.shareProto,
  shareType: d.shareType,
  capabilities: d.capabilities,
  requestedAvailabilityZone: d.availabilityZone,
  metadata: {},
  isPublic: d.isPublic,
  snapshotId: null,
  snapshotSource: null,
  schedulerHints: null,
  createdAt: d.createdAt,
  instances: [
    newShareInstance(d.instanceId, 'manage_starting', d.host, d.availabilityZone, d.createdAt),
  ],
  snapshots: [],
  accessRules: [],
  pendingResize: null,
  manageRequest: { exportPath: d.exportPath, driverOptions: d.driverOptions },
});

const settled = (
  state: ActiveShare,
  d: { instanceId: string; commandId: string },
  at: string,
  status: ShareStatus,
): ActiveShare =>
  updateInstance(settlePending(state, d.commandId, at), d.instanceId, (i) => ({
    ...i,
    status,
    updatedAt: at,
  }));

export const evolveManage = (state: ShareState, event: ManageEvent): ShareState => {
  if (event.type === 'ShareManageRequested') return shareManageRequested(event);
  if (state.kind !== 'active') return state;
  switch (event.type) {
    case 'ShareManaged': {
      const d = event.data;
      const managed = settled(state, d, d.managedAt, 'available');
      return {
        ...managed,
        size: d.size,
        instances: managed.instances.map((i) =>
          i.id === d.instanceId
            ? {
                ...i,
                exportLocations: d.exportLocations,
                // Managed with a replication type, the instance is the active replica.
                replicaState: state.capabilities?.replicationType ? 'active' : null,
              }
            : i,
        ),
      };
    }
    case 'ShareManageFailed':
      return { ...settled(state, event.data, event.data.failedAt, 'manage_error'), size: 0 };
    case 'ShareUnmanageRequested':
      return updateInstance(state, event.data.instanceId, (i) => ({
        ...i,
        status: 'unmanage_starting',
        updatedAt: event.data.requestedAt,
      }));
    case 'ShareUnmanaged':
      return settlePending(state, event.data.commandId, event.data.unmanagedAt);
    case 'ShareUnmanageFailed':
      return settled(state, event.data, event.data.failedAt, 'unmanage_error');
  }
};
