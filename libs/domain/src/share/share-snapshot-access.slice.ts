import type { SnapshotAccessCommand } from './share-snapshot-access.commands.js';
import { decideSnapshotAccess } from './share-snapshot-access.decide.js';
import type { SnapshotAccessEvent } from './share-snapshot-access.events.js';
import { evolveSnapshotAccess } from './share-snapshot-access.evolve.js';
import { activeShareSlice } from './share.slice.js';

/** Read-only access rules of mountable snapshots (2.32), enforced by the share's node. */
export const snapshotAccessSlice = activeShareSlice<SnapshotAccessCommand, SnapshotAccessEvent>({
  commandTypes: [
    'AllowSnapshotAccess',
    'DenySnapshotAccess',
    'CompleteSnapshotAccessUpdate',
    'FailSnapshotAccessUpdate',
  ],
  eventTypes: [
    'SnapshotAccessAllowed',
    'SnapshotAccessDenied',
    'SnapshotAccessUpdated',
    'SnapshotAccessUpdateFailed',
  ],
  decide: decideSnapshotAccess,
  evolve: evolveSnapshotAccess,
});
