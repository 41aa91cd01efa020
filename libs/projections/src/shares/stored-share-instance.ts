import {
  TRANSITIONAL_STATUSES,
  type ActiveShare,
  type ShareInstanceState,
  type ShareStatus,
} from '#hawser/domain';
import type { DocumentStore, Filter, FindOptions } from '#hawser/read-models';
import {
  SHARE_INSTANCES,
  SHARES,
  shareStateOf,
  toShareInstanceDocument,
  type ShareInstanceDocument,
  type ShareRecord,
} from './share.documents.js';

/**
 * A share instance as its collection stores it: only what readers find instances by (share,
 * status, host, replica state, a claimed operation; the project for a replica, since only the
 * replica listing finds instances by project) and sort them on. Everything else an instance
 * shows is its share's, so it is read from the share's record rather than repeated: read
 * through `getShareInstance` / `findShareInstances`. A missing `replica_state`,
 * `pending_operation` or `transitional_status` filters as null.
 */
export interface StoredShareInstance {
  readonly id: string;
  readonly share_id: string;
  readonly project_id?: string;
  readonly status: string;
  /**
   * The status again while it is one an instance passes through (`IN_FLIGHT_STATUSES`), absent
   * once settled: the share node's polls find the few instances in flight on its sparse index
   * rather than walk every instance.
   */
  readonly transitional_status?: string;
  readonly host: string;
  readonly replica_state?: string;
  readonly pending_operation?: ShareInstanceDocument['pending_operation'];
  readonly created_at: string;
}

/** Manila's transitional statuses, and the two an instance waits in for a driver or a peer. */
export const IN_FLIGHT_STATUSES: ReadonlySet<ShareStatus> = new Set<ShareStatus>([
  ...TRANSITIONAL_STATUSES,
  'creating_from_snapshot',
  'replication_change',
]);

export const toStoredShareInstance = (
  share: ActiveShare,
  instance: ShareInstanceState,
): StoredShareInstance => ({
  id: instance.id,
  share_id: share.id,
  status: instance.status,
  ...(IN_FLIGHT_STATUSES.has(instance.status) && { transitional_status: instance.status }),
  host: instance.host,
  ...(instance.replicaState !== null && {
    project_id: share.projectId,
    replica_state: instance.replicaState,
  }),
  ...(instance.pendingOperation && {
    pending_operation: {
      operation: instance.pendingOperation.operation,
      command_id: instance.pendingOperation.commandId,
    },
  }),
  created_at: instance.createdAt,
});

const byCreation = (a: ShareInstanceState, b: ShareInstanceState): number =>
  a.createdAt === b.createdAt ? (a.id < b.id ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1;

/** Every instance of a share as the API shows it, oldest first. */
export const shareInstanceDocumentsOf = (record: ShareRecord): ShareInstanceDocument[] => {
  const share = shareStateOf(record);
  return [...share.instances]
    .sort(byCreation)
    .map((instance) => toShareInstanceDocument(share, instance, record.revision));
};

/**
 * The API's documents of stored instances, from their shares' records (one read for all), in
 * the order found. An instance whose share or itself is gone since it was found is left out.
 */
const documentsOf = async (
  documents: DocumentStore,
  stored: readonly StoredShareInstance[],
): Promise<ShareInstanceDocument[]> => {
  if (stored.length === 0) return [];
  const shareIds = [...new Set(stored.map((instance) => instance.share_id))];
  const records = await documents.getMany<ShareRecord>(SHARES, shareIds);
  const shares = new Map(records.map((record) => [record.id, record]));
  return stored.flatMap((found) => {
    const record = shares.get(found.share_id);
    const share = record && shareStateOf(record);
    const instance = share?.instances.find((i) => i.id === found.id);
    return record && share && instance
      ? [toShareInstanceDocument(share, instance, record.revision)]
      : [];
  });
};

/** Every instance of a share, oldest first; undefined when there is no such share. */
export const instancesOfShare = async (
  documents: DocumentStore,
  shareId: string,
): Promise<ShareInstanceDocument[] | undefined> => {
  const record = await documents.get<ShareRecord>(SHARES, shareId);
  return record && shareInstanceDocumentsOf(record);
};

export const getShareInstance = async (
  documents: DocumentStore,
  id: string,
): Promise<ShareInstanceDocument | undefined> => {
  const stored = await documents.get<StoredShareInstance>(SHARE_INSTANCES, id);
  return stored && (await documentsOf(documents, [stored]))[0];
};

export const findShareInstances = async (
  documents: DocumentStore,
  filter?: Filter,
  options?: FindOptions,
): Promise<ShareInstanceDocument[]> =>
  documentsOf(
    documents,
    await documents.find<StoredShareInstance>(SHARE_INSTANCES, filter, options),
  );
