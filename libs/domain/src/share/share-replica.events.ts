import type { DomainEvent } from '../shared/decider.js';
import type { ExportLocation, ReplicaState } from './share.types.js';

/**
 * A user asked for another replica of a replicated share (reference 5.1): a new instance,
 * `creating` and `out_of_sync`, with a `creating` snapshot instance for every snapshot of the
 * share and every access rule queued on it.
 */
export type ReplicaRequested = DomainEvent<
  'ReplicaRequested',
  {
    replicaId: string;
    /** The zone asked for, if any. */
    availabilityZone: string | null;
    /** An admin's `only_host`: overrides the share's affinity hints; absent when not given. */
    onlyHost?: string;
    snapshotInstances: { snapshotId: string; snapshotInstanceId: string }[];
    /** The quota holder counting this replica (released when a replica goes). */
    quotaHolderId: string;
    requestedAt: string;
  }
>;

export type ReplicaScheduled = DomainEvent<
  'ReplicaScheduled',
  { replicaId: string; host: string; availabilityZone: string; size: number; scheduledAt: string }
>;

/** No pool of the replication domain passed: status and replica_state `error`. */
export type ReplicaSchedulingFailed = DomainEvent<
  'ReplicaSchedulingFailed',
  { replicaId: string; message: string; detail: Record<string, unknown>; failedAt: string }
>;

/** The driver built the replica; the rules and snapshots it was given are on it. */
export type ReplicaCreated = DomainEvent<
  'ReplicaCreated',
  {
    replicaId: string;
    commandId: string;
    replicaState: ReplicaState;
    exportLocations: ExportLocation[];
    accessRulesStatus: 'active' | 'error';
    /** Snapshot instances the driver copied onto the replica: available now. */
    snapshotInstanceIds: string[];
    createdAt: string;
  }
>;

export type ReplicaCreationFailed = DomainEvent<
  'ReplicaCreationFailed',
  { replicaId: string; commandId: string; message: string; failedAt: string }
>;

export type ReplicaDeletionRequested = DomainEvent<
  'ReplicaDeletionRequested',
  { replicaId: string; force: boolean; requestedAt: string }
>;

/**
 * The replica is gone, with its snapshot instances and rule mappings; its quota is released.
 * `shareSize` is the share's size then: what the replica counted since its reservation.
 */
export type ReplicaDeleted = DomainEvent<
  'ReplicaDeleted',
  {
    replicaId: string;
    commandId: string | null;
    quotaHolderId: string | null;
    shareSize: number;
    deletedAt: string;
  }
>;

/** The driver could not delete it: `error_deleting`, replica_state `error`. */
export type ReplicaDeletionFailed = DomainEvent<
  'ReplicaDeletionFailed',
  { replicaId: string; commandId: string; message: string; failedAt: string }
>;

/** A promotion began: the replica is `replication_change`, the share busy. */
export type ReplicaPromotionRequested = DomainEvent<
  'ReplicaPromotionRequested',
  { replicaId: string; requestedAt: string }
>;

/** The replica is the active one; the others have the states the driver reported. */
export type ReplicaPromoted = DomainEvent<
  'ReplicaPromoted',
  {
    replicaId: string;
    commandId: string;
    replicas: {
      replicaId: string;
      replicaState: ReplicaState;
      exportLocations?: ExportLocation[];
    }[];
    promotedAt: string;
  }
>;

/** The driver failed to promote: every replica of the share is `error` (reference 5.4). */
export type ReplicaPromotionFailed = DomainEvent<
  'ReplicaPromotionFailed',
  { replicaId: string; commandId: string; message: string; failedAt: string }
>;

/** An admin asked the node to refresh the replica's state now. */
export type ReplicaResyncRequested = DomainEvent<
  'ReplicaResyncRequested',
  { replicaId: string; requestedAt: string }
>;

/** The driver reported a new replica_state; a failing driver sets status `error` too. */
export type ReplicaStateRefreshed = DomainEvent<
  'ReplicaStateRefreshed',
  { replicaId: string; replicaState: ReplicaState; statusError: boolean; refreshedAt: string }
>;

export type ReplicaStateReset = DomainEvent<
  'ReplicaStateReset',
  { replicaId: string; replicaState: ReplicaState; resetAt: string }
>;

export type ReplicaEvent =
  | ReplicaRequested
  | ReplicaScheduled
  | ReplicaSchedulingFailed
  | ReplicaCreated
  | ReplicaCreationFailed
  | ReplicaDeletionRequested
  | ReplicaDeleted
  | ReplicaDeletionFailed
  | ReplicaPromotionRequested
  | ReplicaPromoted
  | ReplicaPromotionFailed
  | ReplicaResyncRequested
  | ReplicaStateRefreshed
  | ReplicaStateReset;

export const REPLICA_EVENT_TYPES: readonly ReplicaEvent['type'][] = [
  'ReplicaRequested',
  'ReplicaScheduled',
  'ReplicaSchedulingFailed',
  'ReplicaCreated',
  'ReplicaCreationFailed',
  'ReplicaDeletionRequested',
  'ReplicaDeleted',
  'ReplicaDeletionFailed',
  'ReplicaPromotionRequested',
  'ReplicaPromoted',
  'ReplicaPromotionFailed',
  'ReplicaResyncRequested',
  'ReplicaStateRefreshed',
  'ReplicaStateReset',
];
