import {
  castsRulesToReadonly,
  instanceAccessRulesStatus,
  preferredInstance,
  shareAccessRulesStatus,
  type ExportLocation,
  type ShareInstanceState,
  type ActiveShare,
  type TaskState,
} from '#hawser/domain';
import { LONG_KEYS, packShare, unpackShare, type PackedShare } from './packed-share.js';

export const SHARES = 'shares';
export const SHARE_INSTANCES = 'share_instances';

export interface ExportLocationDocument {
  id: string;
  path: string;
  preferred: boolean;
  is_admin_only: boolean;
  share_instance_id: string;
}

/** The fields listings filter and sort on, under Manila's column names. */
export interface ShareListingFields {
  id: string;
  /** Revision of the share stream this record reflects (idempotent replays). */
  revision: number;
  name: string | null;
  description: string | null;
  project_id: string;
  user_id: string;
  size: number;
  share_proto: string;
  share_type_id: string | null;
  status: string;
  host: string;
  availability_zone: string | null;
  is_public: boolean;
  metadata: Record<string, string>;
  snapshot_id: string | null;
  share_network_id: null;
  created_at: string;
  updated_at: string;
  /** In the recycle bin (2.69) until this time; null when not in it. */
  scheduled_to_be_deleted_at: string | null;
}

/** Null listing fields are left out of a stored record: filters, sorts and indexes read a missing field as null. */
type NullsLeftOut<T> = {
  [K in keyof T as null extends T[K] ? K : never]?: Exclude<T[K], null> | null;
} & { [K in keyof T as null extends T[K] ? never : K]: T[K] };

/**
 * One share as it is stored in the listing: the listing fields (nulls left out) and the rest of
 * the folded share, packed (`packShare`) under `p`; readers get the share back with
 * `shareStateOf`. Kept small on purpose: every share has one, and the listing is rebuilt from
 * the whole log.
 */
export type ShareRecord = Omit<NullsLeftOut<ShareListingFields>, 'is_public' | 'metadata'> & {
  /** Left out when false (a filter on `is_public: true` finds only those that have it). */
  is_public?: boolean;
  /** Left out when empty. */
  metadata?: Record<string, string>;
  p: PackedShare;
};

/** One share as the API shows it: Manila's column names, derived from a record's state. */
export interface ShareDocument extends ShareListingFields {
  share_type_name: string | null;
  /** Statuses of every instance: Manila's `status` filter matches any of them. */
  instance_statuses: string[];
  progress: string | null;
  share_server_id: null;
  share_group_id: null;
  source_share_group_snapshot_member_id: null;
  task_state: TaskState | null;
  access_rules_status: 'active' | 'syncing' | 'error';
  snapshot_support: boolean;
  create_share_from_snapshot_support: boolean;
  revert_to_snapshot_support: boolean;
  mount_snapshot_support: boolean;
  replication_type: string | null;
  has_replicas: boolean;
  export_locations: ExportLocationDocument[];
  is_soft_deleted: boolean;
}

export interface ShareInstanceDocument {
  id: string;
  revision: number;
  share_id: string;
  project_id: string;
  status: string;
  host: string;
  availability_zone: string | null;
  replica_state: string | null;
  progress: string | null;
  share_type_id: string | null;
  share_network_id: null;
  share_server_id: null;
  access_rules_status: 'active' | 'syncing' | 'error';
  cast_rules_to_readonly: boolean;
  export_locations: ExportLocationDocument[];
  /** The driver operation a node has claimed and not yet reported on (start-up recovery). */
  pending_operation: { operation: string; command_id: string } | null;
  created_at: string;
  updated_at: string;
}

const exportLocationDocuments = (
  instanceId: string,
  locations: readonly ExportLocation[],
): ExportLocationDocument[] =>
  locations.map((l) => ({
    id: l.id,
    path: l.path,
    preferred: l.preferred,
    is_admin_only: l.isAdminOnly,
    share_instance_id: instanceId,
  }));

export const toShareInstanceDocument = (
  share: ActiveShare,
  instance: ShareInstanceState,
  revision: number,
): ShareInstanceDocument => ({
  id: instance.id,
  revision,
  share_id: share.id,
  project_id: share.projectId,
  status: instance.status,
  host: instance.host,
  availability_zone: instance.availabilityZone,
  replica_state: instance.replicaState,
  progress: instance.progress,
  share_type_id: share.shareType?.id ?? null,
  share_network_id: null,
  share_server_id: null,
  access_rules_status: instanceAccessRulesStatus(share.accessRules, instance.id),
  cast_rules_to_readonly: castsRulesToReadonly(share, instance),
  export_locations: exportLocationDocuments(instance.id, instance.exportLocations),
  pending_operation: instance.pendingOperation
    ? {
        operation: instance.pendingOperation.operation,
        command_id: instance.pendingOperation.commandId,
      }
    : null,
  created_at: instance.createdAt,
  updated_at: instance.updatedAt,
});

/** Manila's legacy export_locations: active (or all) instances that are available. */
const shareExportLocations = (instances: readonly ShareInstanceState[]) => {
  const active = instances.filter((i) => i.replicaState === 'active');
  return (
    (active.length > 0 ? active : instances)
      // A migration's source still serves the share; its destination (migrating_to) does not yet.
      .filter((i) => i.status === 'available' || i.status === 'migrating')
      .flatMap((i) => exportLocationDocuments(i.id, i.exportLocations))
  );
};

const latestUpdate = (state: ActiveShare): string =>
  state.instances.reduce(
    (latest, i) => (i.updatedAt > latest ? i.updatedAt : latest),
    state.createdAt,
  );

export const toShareRecord = (state: ActiveShare, revision: number): ShareRecord => {
  const preferred = preferredInstance(state.instances);
  const listing = {
    id: state.id,
    revision,
    ...(state.name !== null && { name: state.name }),
    ...(state.description !== null && { description: state.description }),
    project_id: state.projectId,
    user_id: state.userId,
    size: state.size,
    share_proto: state.shareProto,
    ...(state.shareType && { share_type_id: state.shareType.id }),
    status: preferred?.status ?? 'deleted',
    host: preferred?.host ?? '',
    ...(preferred?.availabilityZone != null && { availability_zone: preferred.availabilityZone }),
    ...(state.isPublic && { is_public: true }),
    ...(Object.keys(state.metadata).length > 0 && { metadata: { ...state.metadata } }),
    ...(state.snapshotId !== null && { snapshot_id: state.snapshotId }),
    created_at: state.createdAt,
    updated_at: latestUpdate(state),
    ...(state.recycleBin && {
      scheduled_to_be_deleted_at: state.recycleBin.scheduledToBeDeletedAt,
    }),
  };
  const packed = packShare(state, listing);
  unpacked.set(packed, state);
  return { ...listing, p: packed };
};

/**
 * The folded share a stored record holds. A record written before holds it packed under the
 * state's own names (`share`), or, before shares were packed, whole (`state`); either is read as
 * it is until its share's next event rewrites it.
 */
export const shareStateOf = (record: ShareRecord): ActiveShare => {
  const before = record as { state?: ActiveShare; share?: PackedShare };
  if (before.state) return before.state;
  const packed = before.share ?? record.p;
  let state = unpacked.get(packed);
  if (state === undefined) {
    state = unpackShare(record, packed, before.share ? LONG_KEYS : undefined);
    unpacked.set(packed, state);
  }
  return state;
};

/**
 * The share each packed share stands for, once unpacked (or as packed): the fold and its
 * derived collections see the same objects, so an instance `evolve` left alone is known as
 * unchanged (`rewrite: 'when-changed'`), and a record is unpacked once however often it is read.
 */
const unpacked = new WeakMap<PackedShare, ActiveShare>();

/** The API's view of a stored share. */
export const shareDocumentOf = (record: ShareRecord): ShareDocument =>
  toShareDocument(shareStateOf(record), record.revision);

export const toShareDocument = (state: ActiveShare, revision: number): ShareDocument => {
  const preferred = preferredInstance(state.instances);
  const caps = state.capabilities;
  return {
    id: state.id,
    revision,
    name: state.name,
    description: state.description,
    project_id: state.projectId,
    user_id: state.userId,
    size: state.size,
    share_proto: state.shareProto,
    share_type_id: state.shareType?.id ?? null,
    share_type_name: state.shareType?.name ?? null,
    status: preferred?.status ?? 'deleted',
    instance_statuses: [...new Set(state.instances.map((i) => i.status))],
    host: preferred?.host ?? '',
    availability_zone: preferred?.availabilityZone ?? null,
    // A migration's progress is the share's while it runs (the GraphQL share follows it).
    progress: state.migration ? `${state.migration.progress}%` : (preferred?.progress ?? null),
    is_public: state.isPublic,
    metadata: { ...state.metadata },
    snapshot_id: state.snapshotId,
    share_network_id: null,
    share_server_id: null,
    share_group_id: null,
    source_share_group_snapshot_member_id: null,
    task_state: state.taskState ?? null,
    access_rules_status: shareAccessRulesStatus(state.accessRules, state.instances),
    snapshot_support: caps?.snapshotSupport ?? false,
    create_share_from_snapshot_support: caps?.createShareFromSnapshotSupport ?? false,
    revert_to_snapshot_support: caps?.revertToSnapshotSupport ?? false,
    mount_snapshot_support: caps?.mountSnapshotSupport ?? false,
    replication_type: caps?.replicationType ?? null,
    has_replicas: state.instances.filter((i) => i.replicaState !== null).length > 1,
    export_locations: shareExportLocations(state.instances),
    is_soft_deleted: Boolean(state.recycleBin),
    scheduled_to_be_deleted_at: state.recycleBin?.scheduledToBeDeletedAt ?? null,
    created_at: state.createdAt,
    updated_at: latestUpdate(state),
  };
};
