import type { AccessCommand } from './share-access.commands.js';
import { decideAccess } from './share-access.decide.js';
import type { AccessEvent } from './share-access.events.js';
import { evolveAccess } from './share-access.evolve.js';
import { activeShareSlice } from './share.slice.js';

/** Access rules: allowed and denied by users, applied by each instance's node. */
export const accessSlice = activeShareSlice<AccessCommand, AccessEvent>({
  commandTypes: [
    'AllowAccess',
    'ChangeAccessRuleMetadata',
    'DenyAccess',
    'CompleteAccessUpdate',
    'FailAccessUpdate',
  ],
  eventTypes: [
    'ShareAccessAllowed',
    'AccessRuleMetadataChanged',
    'ShareAccessDenied',
    'ShareAccessUpdated',
    'ShareAccessUpdateFailed',
  ],
  decide: decideAccess,
  evolve: evolveAccess,
});
