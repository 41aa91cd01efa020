import type { SnapshotManageCommand } from './share-snapshot-manage.commands.js';
import { decideSnapshotManage } from './share-snapshot-manage.decide.js';
import type { SnapshotManageEvent } from './share-snapshot-manage.events.js';
import { evolveSnapshotManage } from './share-snapshot-manage.evolve.js';
import { activeShareSlice } from './share.slice.js';

/**
 * Snapshot manage and unmanage (DHSS=False): a snapshot adopted on the share's back end by that
 * back end's node, and let go with its data kept.
 */
export const snapshotManageSlice = activeShareSlice<SnapshotManageCommand, SnapshotManageEvent>({
  commandTypes: [
    'ManageSnapshot',
    'CompleteSnapshotManage',
    'FailSnapshotManage',
    'UnmanageSnapshot',
    'CompleteSnapshotUnmanage',
    'FailSnapshotUnmanage',
  ],
  eventTypes: [
    'SnapshotManageRequested',
    'SnapshotManaged',
    'SnapshotManageFailed',
    'SnapshotUnmanageRequested',
    'SnapshotUnmanaged',
    'SnapshotUnmanageFailed',
  ],
  decide: decideSnapshotManage,
  evolve: evolveSnapshotManage,
});
