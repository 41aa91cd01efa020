import { Inject, Injectable } from '@nestjs/common';
import { notFoundError } from '#hawser/api-contracts';
import { SNAPSHOTS, type SnapshotDocument } from '#hawser/projections';
import { DOCUMENT_STORE, type DocumentStore } from '#hawser/read-models';
import type { Caller } from '../requester.js';

/** Snapshots as a caller may see them. */
@Injectable()
export class SnapshotReads {
  constructor(@Inject(DOCUMENT_STORE) private readonly documents: DocumentStore) {}

  /** A snapshot of the caller's project (any for admins); else 404 (reference 9.3). */
  async find(id: string, caller: Caller): Promise<SnapshotDocument> {
    const doc = await this.documents.get<SnapshotDocument>(SNAPSHOTS, id);
    if (!doc || doc.status === null || !(caller.isAdmin || doc.project_id === caller.projectId)) {
      throw notFoundError(`Snapshot ${id} could not be found.`);
    }
    return doc;
  }
}
