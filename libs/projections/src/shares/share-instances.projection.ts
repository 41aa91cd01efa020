import { SHARE_INSTANCES, toShareInstanceDocument } from './share.documents.js';
import { shareItems } from './share-fold.js';
import { toStoredShareInstance } from './stored-share-instance.js';

/**
 * Share instances for admins (Manila's share-instances API) and for share nodes settling
 * operations at start-up, derived by the shares projection from the share it folds.
 */
export const shareInstanceItems = shareItems({
  collection: SHARE_INSTANCES,
  items: (share) => share.instances,
  toDocument: (share, instance, revision) =>
    toStoredShareInstance(toShareInstanceDocument(share, instance, revision)),
  // Instances show the share's type, access rules and revision: rewritten on every event.
  rewrite: 'every-event',
});

/** A share's instances (its replicas), for the API's per-share views and their batched reads. */
export const SHARE_INSTANCE_INDEXES = { [SHARE_INSTANCES]: [['share_id', 'created_at']] } as const;
