import { assertNever } from '../shared/decider.js';
import { withChanges } from '../shared/string-map.js';
import type { ShareCapabilities } from '../share-type/extra-specs.js';
import type { AccessRuleState } from './share-access.state.js';
import { evolveAccess, withdrawInstanceFromRules } from './share-access.evolve.js';
import { evolvePlacement } from './share-placement.evolve.js';
import { evolveFromSnapshot } from './share-from-snapshot.evolve.js';
import type { SnapshotSource } from './share-from-snapshot.types.js';
import { evolveReplica } from './share-replica.evolve.js';
import type { ReplicationState } from './share-replica.state.js';
import { isReplicaEvent } from './share-replica.events.js';
import { evolveResize, withdrawFromResize } from './share-resize.evolve.js';
import { evolveSnapshot } from './share-snapshot.evolve.js';
import type { SnapshotState } from './share-snapshot.state.js';
import type { ShareEvent } from './share.events.js';
import type {
  DriverOperation,
  ExportLocation,
  ReplicaState,
  RequestedShareType,
  SchedulerHints,
  ShareStatus,
} from './share.types.js';
import { TRANSITIONAL_STATUSES } from './share.types.js';

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

export const attemptedHostsOf = (instance: ShareInstanceState): readonly string[] =>
  instance.attemptedHosts ?? [];

export interface ShareState {
  readonly lifecycle: 'absent' | 'active' | 'deleted';
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
  /** Requests whose quota reservation expired before they were recorded; absent when none. */
  readonly expiredReservations?: readonly string[];
}

export const initialShareState = (): ShareState => ({
  lifecycle: 'absent',
  id: '',
  projectId: '',
  userId: '',
  name: null,
  description: null,
  size: 0,
  shareProto: '',
  shareType: null,
  capabilities: null,
  requestedAvailabilityZone: null,
  metadata: {},
  isPublic: false,
  snapshotId: null,
  snapshotSource: null,
  schedulerHints: null,
  createdAt: '',
  instances: [],
  snapshots: [],
  accessRules: [],
  pendingResize: null,
});

const updateInstance = (
  state: ShareState,
  instanceId: string,
  update: (instance: ShareInstanceState) => ShareInstanceState,
): ShareState => ({
  ...state,
  instances: state.instances.map((i) => (i.id === instanceId ? update(i) : i)),
});

/**
 * States that read models stored before snapshots, access rules and resizing existed lack
 * those fields; they start empty, so an existing data directory keeps working.
 */
const withChildren = (state: ShareState): ShareState =>
  (state as Partial<ShareState>).snapshots
    ? state
    : { ...state, snapshots: [], accessRules: [], pendingResize: null };

export const evolveShare = (stored: ShareState, event: ShareEvent): ShareState => {
  const state = event.type === 'ShareRequested' ? stored : withChildren(stored);
  if (isReplicaEvent(event)) return evolveReplica(state, event);
  switch (event.type) {
    case 'ShareRequested': {
      const d = event.data;
      return {
        lifecycle: 'active',
        id: d.shareId,
        projectId: d.projectId,
        userId: d.userId,
        name: d.name,
        description: d.description,
        size: d.size,
        shareProto: d.shareProto,
        shareType: d.shareType,
        capabilities: d.capabilities,
        requestedAvailabilityZone: d.availabilityZone,
        metadata: d.metadata,
        isPublic: d.isPublic,
        snapshotId: d.snapshotId,
        snapshotSource: d.snapshotSource ?? null,
        schedulerHints: d.schedulerHints,
        createdAt: d.createdAt,
        instances: [
          {
            id: d.instanceId,
            status: 'creating',
            host: '',
            availabilityZone: d.availabilityZone,
            replicaState: null,
            progress: null,
            exportLocations: [],
            pendingOperation: null,
            createdAt: d.createdAt,
            updatedAt: d.createdAt,
          },
        ],
        snapshots: [],
        accessRules: [],
        pendingResize: null,
      };
    }
    case 'ShareScheduled':
      return updateInstance(state, event.data.instanceId, (i) => ({
        ...i,
        host: event.data.host,
        availabilityZone: event.data.availabilityZone,
        updatedAt: event.data.scheduledAt,
      }));
    case 'ShareSchedulingFailed':
      return updateInstance(state, event.data.instanceId, (i) => ({
        ...i,
        status: 'error',
        updatedAt: event.data.failedAt,
      }));
    case 'ShareDriverOperationStarted': {
      const d = event.data;
      const claimed = updateInstance(state, d.instanceId, (i) => ({
        ...i,
        pendingOperation: {
          operation: d.operation,
          commandId: d.commandId,
          ...(d.snapshotInstanceId !== undefined && {
            snapshotId: d.snapshotId,
            snapshotInstanceId: d.snapshotInstanceId,
          }),
        },
        updatedAt: d.startedAt,
      }));
      return d.operation === 'update_access' ? evolveAccess(claimed, event) : claimed;
    }
    // An instance force-deleted while its creation ran stays `deleting`: its deletion goes on.
    case 'ShareCreated':
      return updateInstance(state, event.data.instanceId, (i) => ({
        ...i,
        status: i.status === 'deleting' ? 'deleting' : 'available',
        progress: '100%',
        replicaState: state.capabilities?.replicationType ? 'active' : null,
        exportLocations: event.data.exportLocations,
        pendingOperation: null,
        updatedAt: event.data.createdAt,
      }));
    case 'ShareCreationFailed':
      return updateInstance(state, event.data.instanceId, (i) => ({
        ...i,
        status: i.status === 'deleting' ? 'deleting' : 'error',
        progress: null,
        pendingOperation: null,
        updatedAt: event.data.failedAt,
      }));
    case 'ShareUpdated':
      return {
        ...state,
        name: event.data.name === undefined ? state.name : event.data.name,
        description:
          event.data.description === undefined ? state.description : event.data.description,
        isPublic: event.data.isPublic ?? state.isPublic,
      };
    case 'ShareMetadataChanged': {
      return { ...state, metadata: withChanges(state.metadata, event.data.set, event.data.unset) };
    }
    case 'ShareStatusReset': {
      const previous = state.instances.find((i) => i.id === event.data.instanceId)?.status;
      const reset = updateInstance(state, event.data.instanceId, (i) => ({
        ...i,
        status: event.data.status,
        updatedAt: event.data.resetAt,
      }));
      return previous ? withdrawFromResize(reset, event.data.instanceId, previous) : reset;
    }
    case 'ShareDeletionRequested': {
      const targets = new Set(event.data.instanceIds);
      return {
        ...state,
        instances: state.instances.map((i) =>
          targets.has(i.id) ? { ...i, status: 'deleting', updatedAt: event.data.requestedAt } : i,
        ),
      };
    }
    case 'ShareInstanceDeleted':
      return {
        ...state,
        instances: state.instances.filter((i) => i.id !== event.data.instanceId),
        accessRules: withdrawInstanceFromRules(
          state.accessRules,
          event.data.instanceId,
          event.data.deletedAt,
        ),
      };
    case 'ShareDeletionFailed':
      return updateInstance(state, event.data.instanceId, (i) => ({
        ...i,
        status: 'error_deleting',
        pendingOperation: null,
        updatedAt: event.data.failedAt,
      }));
    case 'ShareDeleted':
      return { ...state, lifecycle: 'deleted', instances: [] };
    case 'ReservationExpired':
      return {
        ...state,
        expiredReservations: [...(state.expiredReservations ?? []), event.data.reservationId],
      };
    case 'SnapshotRequested':
    case 'SnapshotInstanceCreated':
    case 'SnapshotInstanceCreationFailed':
    case 'SnapshotUpdated':
    case 'SnapshotMetadataChanged':
    case 'SnapshotStatusReset':
    case 'SnapshotDeletionRequested':
    case 'SnapshotInstanceDeleted':
    case 'SnapshotInstanceDeletionFailed':
    case 'SnapshotDeleted':
    case 'ReplicatedSnapshotCreated':
    case 'ReplicatedSnapshotCreationFailed':
    case 'ReplicatedSnapshotInstancesDeleted':
    case 'ReplicatedSnapshotDeletionFailed':
    case 'ReplicaSnapshotRefreshed':
      return evolveSnapshot(state, event);
    case 'ShareAccessAllowed':
    case 'AccessRuleMetadataChanged':
    case 'ShareAccessDenied':
    case 'ShareAccessUpdated':
    case 'ShareAccessUpdateFailed':
      return evolveAccess(state, event);
    case 'ShareResizeRequested':
    case 'ShareExtendCapacityConfirmed':
    case 'ShareExtendRefused':
    case 'ShareInstanceResized':
    case 'ShareInstanceResizeFailed':
      return evolveResize(state, event);
    case 'SharePlacementRejected':
    case 'ReplicaPlacementRejected':
      return evolvePlacement(state, event);
    case 'ShareCreationDeferred':
    case 'ShareCreationProgressed':
      return evolveFromSnapshot(state, event);
    default:
      return assertNever(event);
  }
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
