import { SHARE_INSTANCES } from './share.documents.js';
import { shareItems } from './share-fold.js';
import { toStoredShareInstance } from './stored-share-instance.js';

/**
 * Share instances for admins (Manila's share-instances API) and for share nodes settling
 * operations at start-up, derived by the shares projection from the share it folds. Each stores
 * only what it is found by; the rest is read from its share's record (`stored-share-instance`).
 */
export const shareInstanceItems = shareItems({
  collection: SHARE_INSTANCES,
  items: (share) => share.instances,
  toDocument: toStoredShareInstance,
  // Only the instance's own fields: rewritten when the instance changes, not on every event.
  rewrite: 'when-changed',
});

/** A share's instances (its replicas), for the API's per-share views and their batched reads. */
export const SHARE_INSTANCE_INDEXES = { [SHARE_INSTANCES]: [['share_id', 'created_at']] } as const;
