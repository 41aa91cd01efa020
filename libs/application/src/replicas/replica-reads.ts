import { Inject, Injectable } from '@nestjs/common';
import { notFoundError } from '#hawser/api-contracts';
import {
  findShareInstances,
  getShareInstance,
  instancesOfShare,
  type ShareInstanceDocument,
} from '#hawser/projections';
import { DOCUMENT_STORE, type DocumentStore } from '#hawser/read-models';
import type { Caller } from '../requester.js';

/** Share replicas (the share instances that have a replica state) as a caller may see them. */
@Injectable()
export class ReplicaReads {
  constructor(@Inject(DOCUMENT_STORE) private readonly documents: DocumentStore) {}

  /** A replica of one of the caller's project's shares (any for admins); else 404. */
  async find(id: string, caller: Caller): Promise<ShareInstanceDocument> {
    const doc = await getShareInstance(this.documents, id);
    if (
      !doc ||
      doc.replica_state === null ||
      !(caller.isAdmin || doc.project_id === caller.projectId)
    ) {
      throw notFoundError(`Share replica ${id} could not be found.`);
    }
    return doc;
  }

  /** Every replica the caller may see, optionally of one share, oldest first. */
  async list(caller: Caller, shareId: string | undefined): Promise<ShareInstanceDocument[]> {
    const visible = (doc: ShareInstanceDocument) =>
      doc.replica_state !== null && (caller.isAdmin || doc.project_id === caller.projectId);
    if (shareId !== undefined) {
      return ((await instancesOfShare(this.documents, shareId)) ?? []).filter(visible);
    }
    return findShareInstances(
      this.documents,
      {
        replica_state: { $ne: null },
        ...(!caller.isAdmin && { project_id: caller.projectId }),
      },
      { sort: [['created_at', 1]] },
    );
  }
}
