import type { DomainEvent } from '../shared/decider.js';
import type { ReplicatedSnapshotEvent } from './share-replicated-snapshot.events.js';
import type { SnapshotStatus } from './share-snapshot.state.js';
import type { ExportLocation } from './share.types.js';

export type SnapshotRequested = DomainEvent<
  'SnapshotRequested',
  {
    snapshotId: string;
    projectId: string;
    userId: string;
    name: string | null;
    description: string | null;
    size: number;
    /** One snapshot instance per share instance (replica), each `creating`. */
    instances: { id: string; shareInstanceId: string }[];
    /**
     * A share with replicas: the active replica whose node takes every instance in one driver
     * call (reference 5.8). Absent otherwise, and in events written before, where each node
     * takes the instances on its own replicas.
     */
    activeInstanceId?: string;
    createdAt: string;
  }
>;

export type SnapshotInstanceCreated = DomainEvent<
  'SnapshotInstanceCreated',
  {
    snapshotId: string;
    snapshotInstanceId: string;
    commandId: string;
    status: 'available' | 'creating';
    progress: string;
    providerLocation: string | null;
    /** A mountable snapshot's (2.32): absent when none, and in events written before. */
    exportLocations?: ExportLocation[];
    createdAt: string;
  }
>;

export type SnapshotInstanceCreationFailed = DomainEvent<
  'SnapshotInstanceCreationFailed',
  {
    snapshotId: string;
    snapshotInstanceId: string;
    commandId: string;
    message: string;
    failedAt: string;
  }
>;

export type SnapshotUpdated = DomainEvent<
  'SnapshotUpdated',
  { snapshotId: string; name?: string | null; description?: string | null; updatedAt: string }
>;

/** Snapshot metadata (2.73) was set or unset. */
export type SnapshotMetadataChanged = DomainEvent<
  'SnapshotMetadataChanged',
  { snapshotId: string; set: Record<string, string>; unset: string[]; updatedAt: string }
>;

export type SnapshotStatusReset = DomainEvent<
  'SnapshotStatusReset',
  { snapshotId: string; snapshotInstanceId: string; status: SnapshotStatus; resetAt: string }
>;

export type SnapshotDeletionRequested = DomainEvent<
  'SnapshotDeletionRequested',
  {
    snapshotId: string;
    snapshotInstanceIds: string[];
    force: boolean;
    /** As in SnapshotRequested: the active replica whose node deletes every instance. */
    activeInstanceId?: string;
    requestedAt: string;
  }
>;

export type SnapshotInstanceDeleted = DomainEvent<
  'SnapshotInstanceDeleted',
  { snapshotId: string; snapshotInstanceId: string; commandId: string | null; deletedAt: string }
>;

export type SnapshotInstanceDeletionFailed = DomainEvent<
  'SnapshotInstanceDeletionFailed',
  {
    snapshotId: string;
    snapshotInstanceId: string;
    commandId: string;
    message: string;
    failedAt: string;
  }
>;

/**
 * The last instance of the snapshot is gone. `projectId` is the project that requested it, whose
 * quota counts it (absent in events written before it was carried).
 */
/**
 * v2: `projectId` names the project that requested the snapshot, so its quota is released
 * there. v1 lacked it (optional, often absent); its upcast carries null, and the quota's
 * release then finds the project in the share's history.
 */
export type SnapshotDeleted = DomainEvent<
  'SnapshotDeleted',
  { snapshotId: string; projectId: string | null; deletedAt: string }
>;

export type SnapshotEvent =
  | ReplicatedSnapshotEvent
  | SnapshotRequested
  | SnapshotInstanceCreated
  | SnapshotInstanceCreationFailed
  | SnapshotUpdated
  | SnapshotMetadataChanged
  | SnapshotStatusReset
  | SnapshotDeletionRequested
  | SnapshotInstanceDeleted
  | SnapshotInstanceDeletionFailed
  | SnapshotDeleted;
