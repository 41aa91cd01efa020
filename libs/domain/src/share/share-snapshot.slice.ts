import type { ReplicatedSnapshotCommand } from './share-replicated-snapshot.commands.js';
import type { ReplicatedSnapshotEvent } from './share-replicated-snapshot.events.js';
import type { SnapshotCommand } from './share-snapshot.commands.js';
import { decideSnapshot } from './share-snapshot.decide.js';
import type { SnapshotEvent } from './share-snapshot.events.js';
import { evolveSnapshot } from './share-snapshot.evolve.js';
import { activeShareSlice } from './share.slice.js';

/** Snapshots of a share: one snapshot instance per share instance, each made by its node. */
export const snapshotSlice = activeShareSlice<
  Exclude<SnapshotCommand, ReplicatedSnapshotCommand>,
  Exclude<SnapshotEvent, ReplicatedSnapshotEvent>
>({
  commandTypes: [
    'RequestSnapshot',
    'CompleteSnapshotInstanceCreation',
    'FailSnapshotInstanceCreation',
    'UpdateSnapshot',
    'ChangeSnapshotMetadata',
    'ResetSnapshotStatus',
    'DeleteSnapshot',
    'CompleteSnapshotInstanceDeletion',
    'FailSnapshotInstanceDeletion',
  ],
  eventTypes: [
    'SnapshotRequested',
    'SnapshotInstanceCreated',
    'SnapshotInstanceCreationFailed',
    'SnapshotUpdated',
    'SnapshotMetadataChanged',
    'SnapshotStatusReset',
    'SnapshotDeletionRequested',
    'SnapshotInstanceDeleted',
    'SnapshotInstanceDeletionFailed',
    'SnapshotDeleted',
  ],
  decide: decideSnapshot,
  evolve: evolveSnapshot,
});
