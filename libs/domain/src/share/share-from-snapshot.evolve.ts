import type { FromSnapshotEvent } from './share-from-snapshot.events.js';
import type { ActiveShare } from './share.state.js';

export const evolveFromSnapshot = (state: ActiveShare, event: FromSnapshotEvent): ActiveShare => {
  const d = event.data;
  return {
    ...state,
    instances: state.instances.map((i) => {
      if (i.id !== d.instanceId) return i;
      switch (event.type) {
        case 'ShareCreationDeferred':
          return {
            ...i,
            status: i.status === 'deleting' ? 'deleting' : 'creating_from_snapshot',
            progress: event.data.progress,
            // As on creation: a replicated share's first instance is its active replica.
            replicaState: state.capabilities?.replicationType ? 'active' : null,
            pendingOperation: null,
            updatedAt: event.data.answeredAt,
          };
        case 'ShareCreationProgressed':
          return { ...i, progress: event.data.progress, updatedAt: event.data.progressedAt };
      }
    }),
  };
};
