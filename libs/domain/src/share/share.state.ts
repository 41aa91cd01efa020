import { notFound } from '../shared/domain-error.js';
import type { ShareCapabilities } from '../share-type/extra-specs.js';
import type { AccessRuleState } from './share-access.state.js';
import type { SnapshotSource } from './share-from-snapshot.types.js';
import type { MigrationState, TaskState } from './share-migration.types.js';
import type { SnapshotState } from './share-snapshot.state.js';
import type {
  DriverOperation,
  ExportLocation,
  ReplicaState,
  RequestedShareType,
  SchedulerHints,
  ShareStatus,
} from './share.types.js';
import { TRANSITIONAL_STATUSES } from './share.types.js';

/** What a share keeps about its replicas beyond the instances themselves. */
export interface ReplicationState {
  /** Quota holders of added replicas not yet released (one per replica beyond the first). */
  readonly quotaHolders: readonly string[];
  /** Replicas whose deletion was forced: a driver failure then removes them anyway. */
  readonly forcedDeletions: readonly string[];
}

export interface ShareInstanceState {
  readonly id: string;
  readonly status: ShareStatus;
  /** `host@backend#pool`; empty until scheduled. */
  readonly host: string;
  readonly availabilityZone: string | null;
  readonly replicaState: ReplicaState | null;
  readonly progress: string | null;
  readonly exportLocations: readonly ExportLocation[];
  /** The driver operation a node has claimed and not yet reported on. */
  readonly pendingOperation: {
    readonly operation: DriverOperation;
    readonly commandId: string;
    /** For snapshot operations: which snapshot instance. */
    readonly snapshotId?: string;
    readonly snapshotInstanceId?: string;
  } | null;
  /** Pools whose node refused this instance (Manila's retry.hosts); absent when none did. */
  readonly attemptedHosts?: readonly string[];
  /**
   * What a replica was requested with: a replica its pool's node handed back is placed again
   * from it. Absent on a share's own instances.
   */
  readonly replicaRequest?: {
    readonly availabilityZone: string | null;
    readonly onlyHost?: string;
  };
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** A new instance on `host` (empty until placed): nothing exported, claimed or replicated yet. */
export const newShareInstance = (
  id: string,
  status: ShareStatus,
  host: string,
  availabilityZone: string | null,
  at: string,
  more: Partial<ShareInstanceState> = {},
): ShareInstanceState => ({
  id,
  status,
  host,
  availabilityZone,
  replicaState: null,
  progress: null,
  exportLocations: [],
  pendingOperation: null,
  createdAt: at,
  updatedAt: at,
  ...more,
});

export const attemptedHostsOf = (instance: ShareInstanceState): readonly string[] =>
  instance.attemptedHosts ?? [];

/** The fields of a requested share: an active share has them, and a deleted one keeps them. */
export interface ShareFields {
  readonly id: string;
  readonly projectId: string;
  readonly userId: string;
  readonly name: string | null;
  readonly description: string | null;
  readonly size: number;
  readonly shareProto: string;
  readonly shareType: RequestedShareType | null;
  readonly capabilities: ShareCapabilities | null;
  readonly requestedAvailabilityZone: string | null;
  readonly metadata: Readonly<Record<string, string>>;
  readonly isPublic: boolean;
  readonly snapshotId: string | null;
  /** Where a share created from a snapshot comes from (states stored earlier lack it). */
  readonly snapshotSource?: SnapshotSource | null;
  readonly schedulerHints: SchedulerHints | null;
  readonly createdAt: string;
  readonly instances: readonly ShareInstanceState[];
  readonly snapshots: readonly SnapshotState[];
  readonly accessRules: readonly AccessRuleState[];
  /** The size an extend or shrink in progress goes to. */
  readonly pendingResize: {
    readonly direction: 'extend' | 'shrink';
    readonly newSize: number;
    /** An extend not yet confirmed by the scheduler: no node may claim it. */
    readonly awaitsCapacityCheck?: boolean;
    /** Set once an instance failed the resize: the share then keeps its size. */
    readonly failed?: boolean;
  } | null;
  /** Replica bookkeeping; absent until the first replica is added. */
  readonly replication?: ReplicationState;
  /** A managed share: what the admin named it by, for the node that adopts it. */
  readonly manageRequest?: {
    readonly exportPath: string;
    readonly driverOptions: Readonly<Record<string, string>>;
  };
  /** Requests whose quota reservation expired before they were recorded; absent when none. */
  readonly expiredReservations?: readonly string[];
  /** Set while the share is in the recycle bin (2.69); absent or null otherwise. */
  readonly recycleBin?: { readonly scheduledToBeDeletedAt: string } | null;
  /** Manila's `task_state` (migration); absent until the first migration. */
  readonly taskState?: TaskState | null;
  /** The migration under way, if any. */
  readonly migration?: MigrationState | null;
}

/**
 * No share was requested on the stream yet. A request whose quota reservation expired first
 * leaves its fence here, so the request is refused when it comes.
 */
export interface AbsentShare {
  readonly kind: 'absent';
  readonly expiredReservations?: readonly string[];
}

/** A requested share, until its last instance is gone. */
export interface ActiveShare extends ShareFields {
  readonly kind: 'active';
}

/**
 * The share once its last instance is gone. It keeps what it held (with no instances), so a read
 * model folding the stream compares before and after and removes only what went, as it did.
 */
export interface DeletedShare extends ShareFields {
  readonly kind: 'deleted';
}

export type ShareState = AbsentShare | ActiveShare | DeletedShare;

export const initialShareState = (): ShareState => ({ kind: 'absent' });

/** How readers outside the decider narrow a loaded share to one that exists. */
export const isActiveShare = (state: ShareState): state is ActiveShare => state.kind === 'active';

export const activeShareOrUndefined = (state: ShareState): ActiveShare | undefined =>
  isActiveShare(state) ? state : undefined;

/** The share a command other than its request names: absent or deleted, it is not found. */
export const activeShareOf = (state: ShareState): ActiveShare => {
  if (state.kind === 'active') return state;
  throw notFound(`Share ${state.kind === 'deleted' ? state.id : ''} could not be found.`);
};

/** For folds that compare a share before and after an event: an absent share has none. */
export const instancesOf = (state: ShareState): readonly ShareInstanceState[] =>
  state.kind === 'absent' ? [] : state.instances;

export const snapshotsOf = (state: ShareState): readonly SnapshotState[] =>
  state.kind === 'absent' ? [] : state.snapshots;

export const accessRulesOf = (state: ShareState): readonly AccessRuleState[] =>
  state.kind === 'absent' ? [] : state.accessRules;

export const instanceOf = (state: ActiveShare, instanceId: string): ShareInstanceState => {
  const instance = state.instances.find((i) => i.id === instanceId);
  if (!instance) throw notFound(`Share instance ${instanceId} could not be found.`);
  return instance;
};

/** The instance whose claim by `commandId` a node's outcome settles; none once it is settled. */
export const instanceClaimedBy = (
  state: ActiveShare,
  instanceId: string,
  commandId: string,
): ShareInstanceState | undefined => {
  const instance = instanceOf(state, instanceId);
  return instance.pendingOperation?.commandId === commandId ? instance : undefined;
};

/** Manila's status priority for the instance a share shows (reference 1.1, "preferred instance"). */
const PRIORITY: readonly ShareStatus[] = [
  'replication_change',
  'migrating',
  'server_migrating',
  'available',
  'error',
];

const rank = (status: ShareStatus): number => {
  const index = PRIORITY.indexOf(status);
  if (index >= 0) return index;
  return TRANSITIONAL_STATUSES.has(status) ? PRIORITY.length + 1 : PRIORITY.length;
};

export const preferredInstance = (
  instances: readonly ShareInstanceState[],
): ShareInstanceState | undefined => {
  // Array.prototype.sort is stable, so ties keep the order the instances were created in.
  const sorted = [...instances].sort((a, b) => rank(a.status) - rank(b.status));
  const first = sorted[0];
  if (!first || first.status === 'replication_change') return first;
  return sorted.find((i) => i.replicaState === 'active') ?? first;
};
