import DataLoader from 'dataloader';
import {
  ACCESS_RULES,
  SHARES,
  SNAPSHOTS,
  shareInstanceDocumentsOf,
  type AccessRuleDocument,
  type ShareInstanceDocument,
  type ShareRecord,
  type SnapshotDocument,
} from '#hawser/projections';
import type { DocumentStore, Identified } from '#hawser/read-models';

const OLDEST_FIRST = [
  ['created_at', 1],
  ['id', 1],
] as const;

/**
 * Loads the documents of many shares with one query: every `load(shareId)` made while a level
 * of the query resolves is collected into a single `$in` find, grouped back per share.
 */
const perShare = <T extends Identified & { share_id: string }>(
  documents: DocumentStore,
  collection: string,
) =>
  new DataLoader<string, T[]>(
    async (shareIds) => {
      const found = await documents.find<T>(
        collection,
        { share_id: { $in: [...shareIds] } },
        { sort: OLDEST_FIRST },
      );
      const byShare = new Map<string, T[]>(shareIds.map((id) => [id, []]));
      for (const doc of found) byShare.get(doc.share_id)?.push(doc);
      return shareIds.map((id) => byShare.get(id) ?? []);
    },
    // Batching only: a subscription lives for minutes and must read each change afresh.
    { cache: false },
  );

/**
 * The batched read-model reads of one GraphQL operation, so a list of 100 shares with their
 * replicas, snapshots and rules costs one query per kind, not one per share.
 */
export class ReadModelLoaders {
  readonly replicas: DataLoader<string, ShareInstanceDocument[]>;
  readonly snapshots: DataLoader<string, SnapshotDocument[]>;
  readonly accessRules: DataLoader<string, AccessRuleDocument[]>;
  readonly shareRecords: DataLoader<string, ShareRecord | undefined>;

  constructor(documents: DocumentStore) {
    // A share's instances are read from its record, which holds them.
    this.replicas = new DataLoader(
      async (ids) => {
        const found = await documents.getMany<ShareRecord>(SHARES, ids);
        const byId = new Map(found.map((record) => [record.id, record]));
        return ids.map((id) => {
          const record = byId.get(id);
          return record ? shareInstanceDocumentsOf(record) : [];
        });
      },
      { cache: false },
    );
    this.snapshots = perShare<SnapshotDocument>(documents, SNAPSHOTS);
    this.accessRules = perShare<AccessRuleDocument>(documents, ACCESS_RULES);
    this.shareRecords = new DataLoader(
      async (ids) => {
        const found = await documents.getMany<ShareRecord>(SHARES, ids);
        const byId = new Map(found.map((record) => [record.id, record]));
        return ids.map((id) => byId.get(id));
      },
      { cache: false },
    );
  }
}
