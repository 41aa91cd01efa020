import { SHARE_INSTANCES } from './share.documents.js';
import { shareItems } from './share-fold.js';
import { toStoredShareInstance } from './stored-share-instance.js';

/**
 * Share instances for admins (Manila's share-instances API) and for share nodes settling
 * operations at start-up, derived by the shares projection from the share it folds. Each stores
 * only what it is found by; the rest is read from its share's record (`stored-share-instance`).
 * A share's own instances are read from its record, which holds them: no index on the share.
 */
export const shareInstanceItems = shareItems({
  collection: SHARE_INSTANCES,
  items: (share) => share.instances,
  toDocument: toStoredShareInstance,
  // Only the instance's own fields: rewritten when the instance changes, not on every event.
  rewrite: 'when-changed',
});
