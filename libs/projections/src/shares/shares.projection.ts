import { singleStreamProjection } from '#hawser/read-models';
import { SHARES, toShareRecord, type ShareRecord } from './share.documents.js';
import { foldShare, shareStream, type ShareStreamEvent } from './share-fold.js';

/**
 * The share listing, as Manila's share API shows it; its record keeps the folded share, from
 * which reads derive the rest. One index: a project's shares by time, what every non-admin
 * listing and name lookup walks.
 */
export const sharesProjection = singleStreamProjection<ShareRecord, ShareStreamEvent>({
  name: 'shares',
  collection: SHARES,
  ...shareStream,
  indexes: { [SHARES]: [['project_id', 'created_at']] },
  evolve: (record, event) => {
    const state = foldShare(record?.state, event);
    return state && toShareRecord(state, event.revision);
  },
});
