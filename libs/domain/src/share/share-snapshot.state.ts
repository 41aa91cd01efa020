import { derivedId } from '../shared/deterministic-id.js';
import type { AccessType } from './share-access.state.js';
import type { ExportLocation, ReplicaState } from './share.types.js';

/** Manila's snapshot access mapping states (read-only rules on a mountable snapshot, 2.32). */
export type SnapshotAccessState =
  'queued_to_apply' | 'applying' | 'active' | 'error' | 'queued_to_deny' | 'denying';

/** One read-only access rule of a mountable snapshot. */
export interface SnapshotAccessRuleState {
  readonly id: string;
  readonly accessType: AccessType;
  readonly accessTo: string;
  readonly state: SnapshotAccessState;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** Snapshot and snapshot-instance statuses (reference 2.4). */
export type SnapshotStatus =
  | 'creating'
  | 'available'
  | 'error'
  | 'deleting'
  | 'error_deleting'
  | 'migrating'
  | 'migrating_to'
  | 'server_migrating'
  /** The share is being reverted to this snapshot (2.27). */
  | 'restoring'
  /** Snapshot manage and unmanage (2.12): running, and failed. */
  | 'manage_starting'
  | 'manage_error'
  | 'unmanage_starting'
  | 'unmanage_error';

/** Manila's TRANSITIONAL_STATUSES as a snapshot can be in them. */
export const TRANSITIONAL_SNAPSHOT_STATUSES: ReadonlySet<SnapshotStatus> = new Set<SnapshotStatus>([
  'creating',
  'deleting',
  'manage_starting',
  'unmanage_starting',
  'migrating',
  'migrating_to',
  'restoring',
  'server_migrating',
]);

/** The statuses an admin may reset a snapshot to: the same set as shares (reference 2.4). */
export const RESETTABLE_SNAPSHOT_STATUSES: readonly SnapshotStatus[] = [
  'creating',
  'available',
  'deleting',
  'error',
  'error_deleting',
  'migrating',
  'migrating_to',
  'server_migrating',
];

/** The copy of a snapshot on one share instance (replica). */
export interface SnapshotInstanceState {
  readonly id: string;
  readonly shareInstanceId: string;
  readonly status: SnapshotStatus;
  readonly progress: string;
  readonly providerLocation: string | null;
  /** Where a mountable snapshot (2.32) is reached; absent when none was reported. */
  readonly exportLocations?: readonly ExportLocation[];
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface SnapshotState {
  readonly id: string;
  readonly projectId: string;
  readonly userId: string;
  readonly name: string | null;
  readonly description: string | null;
  /** Absent in states stored before snapshot metadata existed. */
  readonly metadata?: Readonly<Record<string, string>>;
  /** The share's size when the snapshot was taken. */
  readonly size: number;
  /**
   * A share with replicas: the replica whose node creates and deletes every instance (reference
   * 5.8); absent for other shares and in states stored before.
   */
  readonly activeInstanceId?: string;
  /** A managed snapshot: what the admin named it by, for the node that adopts it. */
  readonly manageRequest?: {
    readonly providerLocation: string;
    readonly driverOptions: Readonly<Record<string, string>>;
  };
  /** Read-only access rules of a mountable snapshot (2.32); absent when none was ever added. */
  readonly accessRules?: readonly SnapshotAccessRuleState[];
  /** Deletion was forced: a driver failure then removes the instance anyway. */
  readonly deletionForced: boolean;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly instances: readonly SnapshotInstanceState[];
}

/** The id of a snapshot's instance on one share instance: derived, so deciding stays pure. */
export const snapshotInstanceIdOf = (snapshotId: string, shareInstanceId: string): string =>
  derivedId(snapshotId, `instance:${shareInstanceId}`);

type ReplicaStateOf = (shareInstanceId: string) => ReplicaState | null | undefined;

/** Manila's preferred snapshot instance: on the active replica, else the first (reference 1.5). */
export const preferredSnapshotInstance = (
  snapshot: SnapshotState,
  replicaStateOf: ReplicaStateOf,
): SnapshotInstanceState | undefined =>
  snapshot.instances.find((i) => replicaStateOf(i.shareInstanceId) === 'active') ??
  snapshot.instances[0];

const WORST_FIRST: readonly SnapshotStatus[] = [
  'deleting',
  'creating',
  'manage_starting',
  'unmanage_starting',
  'restoring',
  'error',
  'migrating',
  'server_migrating',
  'available',
];

/**
 * Manila's aggregate status (reference 1.5, 5.8): the worst status among the instances on
 * active or in_sync replicas, so a snapshot is available only once it exists on each of them;
 * without such replicas (a share that is not replicated), the preferred instance's status.
 */
export const snapshotAggregateStatus = (
  snapshot: SnapshotState,
  replicaStateOf: ReplicaStateOf,
): SnapshotStatus | null => {
  const counted = snapshot.instances.filter((i) => {
    const replicaState = replicaStateOf(i.shareInstanceId);
    return replicaState === 'active' || replicaState === 'in_sync';
  });
  if (counted.length === 0) {
    return preferredSnapshotInstance(snapshot, replicaStateOf)?.status ?? null;
  }
  for (const status of WORST_FIRST) {
    if (counted.some((i) => i.status === status)) return status;
  }
  return (counted[0] as SnapshotInstanceState).status;
};
