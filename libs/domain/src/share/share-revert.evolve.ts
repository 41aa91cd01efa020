import { settlePending } from './share-pending.js';
import type { RevertEvent } from './share-revert.events.js';
import type { SnapshotStatus } from './share-snapshot.state.js';
import { updateSnapshotInstance } from './share-snapshot.updates.js';
import { updateInstance } from './share-instance.updates.js';
import type { ActiveShare } from './share.state.js';
import type { ShareStatus } from './share.types.js';

/** The share instance and the snapshot instance of a revert take their new statuses. */
const settle = (
  state: ActiveShare,
  d: { instanceId: string; snapshotId: string; snapshotInstanceId: string },
  at: string,
  instanceStatus: ShareStatus,
  snapshotStatus: SnapshotStatus,
): ActiveShare =>
  updateSnapshotInstance(
    updateInstance(state, d.instanceId, (i) => ({ ...i, status: instanceStatus, updatedAt: at })),
    d.snapshotId,
    d.snapshotInstanceId,
    at,
    (i) => ({ ...i, status: snapshotStatus }),
  );

export const evolveRevert = (state: ActiveShare, event: RevertEvent): ActiveShare => {
  switch (event.type) {
    case 'ShareRevertRequested':
      return settle(state, event.data, event.data.requestedAt, 'reverting', 'restoring');
    case 'ShareReverted': {
      const d = event.data;
      const settled = settlePending(state, d.commandId, d.revertedAt);
      return { ...settle(settled, d, d.revertedAt, 'available', 'available'), size: d.size };
    }
    case 'ShareRevertFailed': {
      const d = event.data;
      const settled = settlePending(state, d.commandId, d.failedAt);
      return settle(settled, d, d.failedAt, 'reverting_error', 'available');
    }
  }
};
