import {
  derivedId,
  evolveShare,
  initialShareState,
  MANILA_DEFAULT_QUOTAS,
  SHARE_STREAM_PREFIX,
  shareIdOfStream,
  shareCreationDeltas,
  shareResizeDeltas,
  snapshotCreationDeltas,
  type QuotaCommand,
  type QuotaState,
  type ShareEvent,
  type ShareState,
} from '#hawser/domain';
import type { Decoded } from '#hawser/eventstore';
import type { Unstamped, Workflow } from '../runtime/workflow.js';

type AdjustQuota = Unstamped<Extract<QuotaCommand, { type: 'AdjustQuota' }>>;

/**
 * Before a replica's holder is released: give back (or take) on the share's holder what the
 * share's resizes since the replica was added counted for it (reference 5.9). It reads the
 * project's quota, so its executor settles it with `replicaResizeSettlement`.
 */
export interface SettleReplicaResizes {
  readonly type: 'SettleReplicaResizes';
  readonly projectId: string;
  /** The replica's quota holder. */
  readonly holderId: string;
  readonly shareId: string;
  /** The share's size when the replica went. */
  readonly shareSize: number;
  readonly adjustmentId: string;
}

export type QuotaReleaseOutput = Unstamped<QuotaCommand> | SettleReplicaResizes;

/** The share's history up to the event in hand, as the quota reads it. */
export interface QuotaReleaseState {
  /** Whether any event was folded yet: only the first can be the request. */
  readonly started: boolean;
  /** The project the share was requested (or managed) in (its first event). */
  readonly projectId: string | undefined;
  /** The project that requested each snapshot, for SnapshotDeleted events of v1. */
  readonly snapshotProjects: Readonly<Record<string, string>>;
  /** The share before and after the last event folded. */
  readonly before: ShareState;
  readonly after: ShareState;
  /** The latest resize request: its event id and the command the API counted the extend under. */
  readonly resizeRequest: RequestRef | undefined;
  /** The latest revert request (absent in states folded before reverts existed). */
  readonly revertRequest?: RequestRef | undefined;
}

/** A request's event id, and the command id the API counted its quota under. */
interface RequestRef {
  readonly id: string;
  readonly commandId: string | undefined;
}

type Input = Decoded<ShareEvent>;

/**
 * A project's quota follows what happens to its shares and snapshots after the request:
 * - ShareDeleted releases the share's holder, in the project the share was requested in;
 * - SnapshotDeleted releases the snapshot's holder, in the project that requested it;
 * - ReplicaDeleted releases the replica holder it names, in the share's project, after settling
 *   the share's resizes for that replica;
 * - an extend that ends without the new size (the driver failed, the scheduler found no room,
 *   or an admin's reset took its instances out before a node started) gives back what its
 *   request counted;
 * - a shrink that ends with the smaller size counts fewer gigabytes (Manila commits a shrink's
 *   quota only on success);
 * - a managed share is counted once the driver reported its size, even past the limits (Manila
 *   commits it with overquota_allowed; unmanaging it deletes it, which releases it);
 * - a managed snapshot likewise, under its own holder in the project that managed it (Manila's
 *   manager adds its usage without a limit check; unmanaging it deletes it, which releases it);
 * - a revert to a smaller snapshot counts fewer gigabytes once it succeeded; one to a larger
 *   snapshot, counted by its request, gives that back when the driver fails it.
 * The quota counts each holder and adjustment once, so a replay changes nothing twice.
 */
export const quotaReleaseWorkflow: Workflow<Input, QuotaReleaseState, QuotaReleaseOutput> = {
  name: 'quota-release',
  filter: {
    streamPrefixes: [SHARE_STREAM_PREFIX],
    eventTypes: [
      'ShareDeleted',
      'SnapshotDeleted',
      'ReplicaDeleted',
      'ShareInstanceResized',
      'ShareInstanceResizeFailed',
      'ShareExtendRefused',
      'ShareReverted',
      'ShareRevertFailed',
      'ShareManaged',
      'SnapshotManaged',
      // An admin's reset can end a resize no node had started.
      'ShareStatusReset',
    ],
  },
  initialState: () => ({
    started: false,
    projectId: undefined,
    snapshotProjects: {},
    before: initialShareState(),
    after: initialShareState(),
    resizeRequest: undefined,
  }),
  evolve: (state, event) => ({
    started: true,
    projectId: state.started
      ? state.projectId
      : event.type === 'ShareRequested' || event.type === 'ShareManageRequested'
        ? event.data.projectId
        : undefined,
    snapshotProjects:
      (event.type === 'SnapshotRequested' || event.type === 'SnapshotManageRequested') &&
      !(event.data.snapshotId in state.snapshotProjects)
        ? { ...state.snapshotProjects, [event.data.snapshotId]: event.data.projectId }
        : state.snapshotProjects,
    before: state.after,
    after: evolveShare(state.after, event),
    resizeRequest:
      event.type === 'ShareResizeRequested'
        ? { id: event.id, commandId: event.metadata.commandId }
        : state.resizeRequest,
    revertRequest:
      event.type === 'ShareRevertRequested'
        ? { id: event.id, commandId: event.metadata.commandId }
        : state.revertRequest,
  }),
  // A snapshot deleted since v2 names its project.
  readsHistory: (event) => !(event.type === 'SnapshotDeleted' && event.data.projectId !== null),
  decide: (event, state) => {
    switch (event.type) {
      case 'ShareDeleted':
        return release(state.projectId, event.data.shareId);
      case 'ReplicaDeleted': {
        const { quotaHolderId: holderId, shareSize } = event.data;
        const { projectId } = state;
        if (holderId === null || projectId === undefined) return [];
        const settle: SettleReplicaResizes = {
          type: 'SettleReplicaResizes',
          projectId,
          holderId,
          shareId: shareIdOfStream(event.streamId),
          shareSize,
          adjustmentId: derivedId(event.id, 'replica-resizes'),
        };
        // Settled first, so a replay still finds the replica's holder.
        return [settle, ...release(projectId, holderId)];
      }
      case 'SnapshotDeleted': {
        const { snapshotId, projectId } = event.data;
        return release(projectId ?? state.snapshotProjects[snapshotId], snapshotId);
      }
      case 'ShareInstanceResized':
      case 'ShareInstanceResizeFailed':
      case 'ShareExtendRefused':
      case 'ShareStatusReset':
        return resizeOutcome(state);
      case 'ShareManaged':
        return managedShareCounted(state, event.data.size);
      case 'SnapshotManaged': {
        const { snapshotId, size } = event.data;
        const projectId = state.snapshotProjects[snapshotId];
        if (projectId === undefined) return [];
        return [
          {
            type: 'ReserveQuota',
            projectId,
            holderId: snapshotId,
            holderKind: 'snapshot',
            deltas: snapshotCreationDeltas(size),
            defaults: MANILA_DEFAULT_QUOTAS,
            overQuotaAllowed: true,
          },
        ];
      }
      case 'ShareReverted':
      case 'ShareRevertFailed':
        return revertOutcome(state, event.type === 'ShareReverted');
      default:
        return [];
    }
  },
};

const release = (projectId: string | undefined, holderId: string): QuotaReleaseOutput[] =>
  projectId === undefined ? [] : [{ type: 'ReleaseQuota', projectId, holderId }];

/** The quota change a resize outcome calls for, once the share's resize is over. */
const resizeOutcome = ({
  before,
  after,
  resizeRequest,
}: QuotaReleaseState): QuotaReleaseOutput[] => {
  if (before.kind === 'absent' || after.kind === 'absent') return [];
  const resize = before.pendingResize;
  if (!resize || after.pendingResize || !resizeRequest) return [];
  const sizeChange = after.size - before.size;
  if (resize.direction === 'extend' && sizeChange === 0) {
    return [
      {
        type: 'RevertQuotaAdjustment',
        projectId: after.projectId,
        holderId: after.id,
        // The API counted the extend under its command's id.
        adjustmentId: resizeRequest.commandId ?? resizeRequest.id,
      },
    ];
  }
  if (resize.direction === 'shrink' && sizeChange < 0) {
    return [
      {
        type: 'AdjustQuota',
        projectId: after.projectId,
        holderId: after.id,
        adjustmentId: derivedId(resizeRequest.id, 'shrink'),
        deltas: shareResizeDeltas(
          sizeChange,
          Boolean(after.capabilities?.replicationType),
          after.instances.length,
        ),
        // A decrease is checked against no limit.
        defaults: MANILA_DEFAULT_QUOTAS,
      },
    ];
  }
  return [];
};

/** A managed share's shares and gigabytes, counted under its own holder. */
const managedShareCounted = ({ after }: QuotaReleaseState, size: number): QuotaReleaseOutput[] => {
  if (after.kind !== 'active') return [];
  return [
    {
      type: 'ReserveQuota',
      projectId: after.projectId,
      holderId: after.id,
      holderKind: 'share',
      deltas: shareCreationDeltas(size, Boolean(after.capabilities?.replicationType)),
      defaults: MANILA_DEFAULT_QUOTAS,
      overQuotaAllowed: true,
    },
  ];
};

/** The quota change a revert's outcome calls for (Manila's commit or rollback of its delta). */
const revertOutcome = (
  { before, after, revertRequest }: QuotaReleaseState,
  succeeded: boolean,
): QuotaReleaseOutput[] => {
  if (before.kind === 'absent' || after.kind === 'absent' || !revertRequest) return [];
  if (!succeeded) {
    // Nothing to give back unless the API counted a larger size under the request's command.
    return [
      {
        type: 'RevertQuotaAdjustment',
        projectId: after.projectId,
        holderId: after.id,
        adjustmentId: revertRequest.commandId ?? revertRequest.id,
      },
    ];
  }
  const sizeChange = after.size - before.size;
  if (sizeChange >= 0) return [];
  return [
    {
      type: 'AdjustQuota',
      projectId: after.projectId,
      holderId: after.id,
      adjustmentId: derivedId(revertRequest.id, 'revert'),
      deltas: shareResizeDeltas(
        sizeChange,
        Boolean(after.capabilities?.replicationType),
        after.instances.length,
      ),
      // A decrease is checked against no limit.
      defaults: MANILA_DEFAULT_QUOTAS,
    },
  ];
};

/**
 * A replica holder counts the share's size when the replica was added; extends and shrinks
 * since then were counted on the share's holder for every replica. The share's holder gives
 * back (or takes) the difference for this replica, so its gigabytes are released exactly;
 * nothing when there is no difference or either holder is gone (a replay).
 */
export const replicaResizeSettlement = (
  quota: QuotaState,
  settle: SettleReplicaResizes,
): AdjustQuota | undefined => {
  const reserved = quota.holdings[settle.holderId]?.deltas.replica_gigabytes;
  if (reserved === undefined || reserved === settle.shareSize) return undefined;
  if (!quota.holdings[settle.shareId]) return undefined;
  return {
    type: 'AdjustQuota',
    projectId: settle.projectId,
    holderId: settle.shareId,
    adjustmentId: settle.adjustmentId,
    deltas: { replica_gigabytes: reserved - settle.shareSize },
    defaults: MANILA_DEFAULT_QUOTAS,
  };
};
