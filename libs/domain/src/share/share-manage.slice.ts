import type { ManageCommand } from './share-manage.commands.js';
import { decideManage } from './share-manage.decide.js';
import type { ManageEvent } from './share-manage.events.js';
import { evolveManage } from './share-manage.evolve.js';
import type { ShareSlice } from './share.slice.js';

/**
 * Manage and unmanage (DHSS=False): a share adopted on its pool by that pool's node, and let go
 * with its data kept. Like the lifecycle slice, it sees an absent share (the adoption starts it).
 */
export const manageSlice: ShareSlice<ManageCommand, ManageEvent> = {
  commandTypes: [
    'ManageShare',
    'CompleteShareManage',
    'FailShareManage',
    'UnmanageShare',
    'CompleteShareUnmanage',
    'FailShareUnmanage',
  ],
  eventTypes: [
    'ShareManageRequested',
    'ShareManaged',
    'ShareManageFailed',
    'ShareUnmanageRequested',
    'ShareUnmanaged',
    'ShareUnmanageFailed',
  ],
  decide: decideManage,
  evolve: evolveManage,
};
