import {
  preferredSnapshotInstance,
  snapshotAggregateStatus,
  type ShareFields,
  type SnapshotState,
} from '#hawser/domain';

export const SNAPSHOTS = 'snapshots';

export interface SnapshotInstanceDocument {
  id: string;
  snapshot_id: string;
  share_id: string;
  share_instance_id: string;
  status: string;
  progress: string;
  provider_location: string | null;
  created_at: string;
  updated_at: string;
}

/** One snapshot as Manila's snapshot API shows it (reference 1.5), under its column names. */
export interface SnapshotDocument {
  id: string;
  /** Revision of the share stream this document reflects. */
  revision: number;
  share_id: string;
  share_size: number;
  share_proto: string;
  size: number;
  /** The aggregate status over the instances. */
  status: string | null;
  progress: string | null;
  provider_location: string | null;
  name: string | null;
  description: string | null;
  /** Absent in documents written before snapshot metadata existed. */
  metadata?: Record<string, string>;
  project_id: string;
  user_id: string;
  created_at: string;
  updated_at: string;
  instances: SnapshotInstanceDocument[];
}

export const toSnapshotDocument = (
  share: ShareFields,
  snapshot: SnapshotState,
  revision: number,
): SnapshotDocument => {
  const replicaStateOf = (id: string) => share.instances.find((i) => i.id === id)?.replicaState;
  const preferred = preferredSnapshotInstance(snapshot, replicaStateOf);
  return {
    id: snapshot.id,
    revision,
    share_id: share.id,
    share_size: share.size,
    share_proto: share.shareProto,
    size: snapshot.size,
    status: snapshotAggregateStatus(snapshot, replicaStateOf),
    progress: preferred?.progress ?? null,
    provider_location: preferred?.providerLocation ?? null,
    name: snapshot.name,
    description: snapshot.description,
    metadata: { ...snapshot.metadata },
    project_id: snapshot.projectId,
    user_id: snapshot.userId,
    created_at: snapshot.createdAt,
    updated_at: snapshot.updatedAt,
    instances: snapshot.instances.map((i) => ({
      id: i.id,
      snapshot_id: snapshot.id,
      share_id: share.id,
      share_instance_id: i.shareInstanceId,
      status: i.status,
      progress: i.progress,
      provider_location: i.providerLocation,
      created_at: i.createdAt,
      updated_at: i.updatedAt,
    })),
  };
};
