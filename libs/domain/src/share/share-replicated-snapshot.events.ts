import type { DomainEvent } from '../shared/decider.js';
import type { SnapshotStatus } from './share-snapshot.state.js';

/** What a driver reported for one snapshot instance of a replicated snapshot. */
export interface SnapshotInstanceOutcome {
  readonly snapshotInstanceId: string;
  readonly status: Extract<SnapshotStatus, 'available' | 'creating' | 'error'>;
  readonly progress: string;
  readonly providerLocation: string | null;
}

/**
 * The node of the active replica took the snapshot of a replicated share (reference 5.8): each
 * instance the driver answered on has that status; instances it left `creating` are finished by
 * the refresh on their replica's node.
 */
export type ReplicatedSnapshotCreated = DomainEvent<
  'ReplicatedSnapshotCreated',
  {
    snapshotId: string;
    commandId: string;
    instances: SnapshotInstanceOutcome[];
    createdAt: string;
  }
>;

/** The driver raised: every instance still `creating` is in error (reference 2.4). */
export type ReplicatedSnapshotCreationFailed = DomainEvent<
  'ReplicatedSnapshotCreationFailed',
  { snapshotId: string; commandId: string; message: string; failedAt: string }
>;

/**
 * The node of the active replica deleted the snapshot of a replicated share: the instances
 * listed are gone, the others stay `deleting` until the refresh on their replica's node.
 */
export type ReplicatedSnapshotInstancesDeleted = DomainEvent<
  'ReplicatedSnapshotInstancesDeleted',
  { snapshotId: string; commandId: string; snapshotInstanceIds: string[]; deletedAt: string }
>;

/** The driver failed to delete it, not forced: every `deleting` instance is error_deleting. */
export type ReplicatedSnapshotDeletionFailed = DomainEvent<
  'ReplicatedSnapshotDeletionFailed',
  { snapshotId: string; commandId: string; message: string; failedAt: string }
>;

/** The periodic refresh of a non-active replica changed one of its snapshot instances. */
export type ReplicaSnapshotRefreshed = DomainEvent<
  'ReplicaSnapshotRefreshed',
  {
    snapshotId: string;
    snapshotInstanceId: string;
    status: Extract<SnapshotStatus, 'available' | 'creating' | 'error'>;
    progress: string;
    refreshedAt: string;
  }
>;

export type ReplicatedSnapshotEvent =
  | ReplicatedSnapshotCreated
  | ReplicatedSnapshotCreationFailed
  | ReplicatedSnapshotInstancesDeleted
  | ReplicatedSnapshotDeletionFailed
  | ReplicaSnapshotRefreshed;
