import { SHARE_INSTANCES, toShareInstanceDocument } from './share.documents.js';
import { shareItemsProjection } from './share-fold.js';

export const SHARE_INSTANCE_STATES = 'share_instance_states';

/**
 * Share instances for admins (Manila's share-instances API) and for share nodes settling
 * operations at start-up. Its own projection, so the share listing rebuilds without it; it
 * keeps the folded share in a collection of its own for the same reason.
 */
export const shareInstancesProjection = shareItemsProjection({
  name: 'share-instances',
  stateCollection: SHARE_INSTANCE_STATES,
  collection: SHARE_INSTANCES,
  // A share's instances (its replicas), for the API's per-share views and their batched reads.
  indexes: { [SHARE_INSTANCES]: [['share_id', 'created_at']] },
  items: (share) => share.instances,
  toDocument: toShareInstanceDocument,
  // Instances show the share's type, access rules and revision: rewritten on every event.
  rewrite: 'every-event',
});
