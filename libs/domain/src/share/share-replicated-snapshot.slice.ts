import {
  REPLICATED_SNAPSHOT_COMMAND_TYPES,
  type ReplicatedSnapshotCommand,
} from './share-replicated-snapshot.commands.js';
import { decideReplicatedSnapshot } from './share-replicated-snapshot.decide.js';
import type { ReplicatedSnapshotEvent } from './share-replicated-snapshot.events.js';
import { evolveReplicatedSnapshot } from './share-replicated-snapshot.evolve.js';
import { activeShareSlice } from './share.slice.js';

/** Snapshots of a share with replicas: one driver call on the active replica, refreshed on the others. */
export const replicatedSnapshotSlice = activeShareSlice<
  ReplicatedSnapshotCommand,
  ReplicatedSnapshotEvent
>({
  commandTypes: REPLICATED_SNAPSHOT_COMMAND_TYPES,
  eventTypes: [
    'ReplicatedSnapshotCreated',
    'ReplicatedSnapshotCreationFailed',
    'ReplicatedSnapshotInstancesDeleted',
    'ReplicatedSnapshotDeletionFailed',
    'ReplicaSnapshotRefreshed',
  ],
  decide: decideReplicatedSnapshot,
  evolve: evolveReplicatedSnapshot,
});
