import { accessSlice } from './share-access.slice.js';
import { affinitySlice } from './share-affinity.slice.js';
import { creationSlice } from './share-creation.slice.js';
import { deletionSlice } from './share-deletion.slice.js';
import { driverOperationSlice } from './share-driver-operation.slice.js';
import { fromSnapshotSlice } from './share-from-snapshot.slice.js';
import { lifecycleSlice } from './share-lifecycle.slice.js';
import { metadataSlice } from './share-metadata.slice.js';
import { migrationSlice } from './share-migration.slice.js';
import { placementSlice } from './share-placement.slice.js';
import { recycleBinSlice } from './share-recycle-bin.slice.js';
import { replicaSlice } from './share-replica.slice.js';
import { replicatedSnapshotSlice } from './share-replicated-snapshot.slice.js';
import { resizeSlice } from './share-resize.slice.js';
import { revertSlice } from './share-revert.slice.js';
import { manageSlice } from './share-manage.slice.js';
import { snapshotManageSlice } from './share-snapshot-manage.slice.js';
import { snapshotAccessSlice } from './share-snapshot-access.slice.js';
import { snapshotSlice } from './share-snapshot.slice.js';
import { statusSlice } from './share-status.slice.js';
import { composeSlices, type ShareSlice } from './share.slice.js';

/**
 * The share decider's topics. Each command and event type belongs to exactly one slice (the
 * table refuses a type claimed twice; share.slices.unit.spec.ts checks none is left out). A new
 * topic (migration, revert, recycle bin, manage) is a new slice and one line here.
 */
export const SHARE_SLICES: readonly ShareSlice[] = [
  lifecycleSlice,
  creationSlice,
  driverOperationSlice,
  metadataSlice,
  statusSlice,
  deletionSlice,
  snapshotSlice,
  replicatedSnapshotSlice,
  accessSlice,
  resizeSlice,
  placementSlice,
  fromSnapshotSlice,
  replicaSlice,
  affinitySlice,
  revertSlice,
  manageSlice,
  snapshotManageSlice,
  snapshotAccessSlice,
  recycleBinSlice,
  migrationSlice,
];

export const shareTable = composeSlices(SHARE_SLICES);
