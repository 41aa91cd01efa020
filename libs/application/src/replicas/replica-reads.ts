import { Inject, Injectable } from '@nestjs/common';
import { notFoundError } from '#hawser/api-contracts';
import {
  getShareInstance,
  SHARE_INSTANCES,
  SHARES,
  type ShareInstanceDocument,
  type ShareRecord,
} from '#hawser/projections';
import { DOCUMENT_STORE, type DocumentStore } from '#hawser/read-models';
import type { ListingWindow } from '../listing/page-params.js';
import type { Caller } from '../requester.js';
import { ReplicaDocuments } from './replica-documents.js';

const within = <T>(items: readonly T[], { offset, limit }: ListingWindow): readonly T[] =>
  items.slice(offset, limit === undefined ? undefined : offset + limit);

/** Share replicas (the share instances that have a replica state) as a caller may see them. */
@Injectable()
export class ReplicaReads {
  constructor(
    @Inject(DOCUMENT_STORE) private readonly documents: DocumentStore,
    private readonly kept: ReplicaDocuments,
  ) {}

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

  /**
   * The replicas the caller may see in `window`, optionally of one share, newest first (the
   * order Manila's share and snapshot listings default to; its replica listing keeps none). The
   * window's replicas are listed by id and share on an index that holds replicas alone (see
   * `SHARE_INSTANCE_SPARSE_INDEXES`), and only their shares are read: those whose record is
   * at a revision already derived (`ReplicaDocuments`) are not read whole.
   */
  async list(
    caller: Caller,
    shareId: string | undefined,
    window: ListingWindow = { offset: 0 },
  ): Promise<readonly ShareInstanceDocument[]> {
    if (shareId !== undefined) {
      const record = await this.documents.get<ShareRecord>(SHARES, shareId);
      const visible = (doc: ShareInstanceDocument) =>
        doc.replica_state !== null && (caller.isAdmin || doc.project_id === caller.projectId);
      return within((record ? this.kept.of(record) : []).filter(visible).reverse(), window);
    }
    const page = await this.documents.findVersions(
      SHARE_INSTANCES,
      'share_id',
      {
        replica_state: { $ne: null },
        ...(!caller.isAdmin && { project_id: caller.projectId }),
      },
      {
        sort: [
          ['created_at', -1],
          ['id', -1],
        ],
        skip: window.offset,
        ...(window.limit !== undefined && { limit: window.limit }),
      },
    );
    const byShare = await this.instancesOfShares([
      ...new Set(page.map(({ version }) => version as string)),
    ]);
    // An instance whose share or itself is gone since it was listed is left out.
    return page.flatMap(({ id, version }) => {
      const instance = byShare.get(version as string)?.find((doc) => doc.id === id);
      return instance ? [instance] : [];
    });
  }

  /** The instances' documents of each share, as its record stands now. */
  private async instancesOfShares(
    shareIds: readonly string[],
  ): Promise<Map<string, readonly ShareInstanceDocument[]>> {
    const byShare = new Map<string, readonly ShareInstanceDocument[]>();
    if (shareIds.length === 0) return byShare;
    const stored = await this.documents.findVersions(SHARES, 'revision', {
      id: { $in: [...shareIds] },
    });
    const unread: string[] = [];
    for (const { id, version } of stored) {
      const kept = this.kept.keptAt(id, version);
      if (kept) byShare.set(id, kept);
      else unread.push(id);
    }
    if (unread.length > 0) {
      for (const record of await this.documents.getMany<ShareRecord>(SHARES, unread)) {
        byShare.set(record.id, this.kept.of(record));
      }
    }
    return byShare;
  }
}
