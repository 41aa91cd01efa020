import { shareInstanceDocumentsOf, type ShareInstanceDocument } from '#hawser/projections';
import { DerivedByRevision } from '../shares/derived-by-revision.js';

/**
 * Estimated heap bytes of the kept instance documents: a share with two replicas, no access
 * rules and an export location each takes about 1.6 KB, so about 1,300 such shares (2,600
 * replicas). The API's views of them are kept beside them (`keptViews`), about as much again.
 */
export const KEPT_REPLICA_DOCUMENT_BYTES = 2 * 1024 * 1024;

/**
 * The API's documents of each share's instances (its replicas, for a replicated share), by share
 * id and revision (see `DerivedByRevision`): a replica listing polled while a few replicas change
 * derives only those shares' documents again.
 */
export class ReplicaDocuments extends DerivedByRevision<readonly ShareInstanceDocument[]> {
  constructor(budgetBytes = KEPT_REPLICA_DOCUMENT_BYTES) {
    super(shareInstanceDocumentsOf, budgetBytes);
  }
}
