import {
  addDeltas,
  derivedId,
  evolveShare,
  initialShareState,
  MANILA_DEFAULT_QUOTAS,
  SHARE_STREAM_PREFIX,
  shareCreationDeltas,
  shareResizeDeltas,
  snapshotCreationDeltas,
  snapshotsOf,
  type QuotaCommand,
  type QuotaDeltas,
  type ShareEvent,
  type ShareState,
} from '#hawser/domain';
import type { Decoded } from '#hawser/eventstore';
import type { Unstamped, Workflow } from '../runtime/workflow.js';

export type QuotaReleaseOutput = Unstamped<QuotaCommand>;

/** The share's history up to the event in hand, as the quota reads it. */
export interface QuotaReleaseState {
  /** The share before and after the last event folded. */
  readonly before: ShareState;
  readonly after: ShareState;
  /** The latest resize request: its event id and the command the API counted the extend under. */
  readonly resizeRequest: RequestRef | undefined;
  /** The latest revert request (absent in states folded before reverts existed). */
  readonly revertRequest?: RequestRef | undefined;
  /** Whether the share's own holder is counted: requested, or managed and adopted. */
  readonly counted?: boolean;
  /** Snapshots being managed: counted only once the driver adopted them. */
  readonly uncountedSnapshots?: readonly string[];
}

/**
 * A request's event id, the command id the API counted its quota under, and what it counted
 * (computed from the share as the request found it, as the API did; absent when it counted
 * nothing: a shrink, a revert to a snapshot no larger than the share).
 */
interface RequestRef {
  readonly id: string;
  readonly commandId: string | undefined;
  readonly counted?: QuotaDeltas | undefined;
}

type Input = Decoded<ShareEvent>;

/**
 * A project's quota follows what happens to its shares and snapshots after the request. The
 * quota keeps counters, not holders, so each release names what it gives back, read from the
 * share's history (as Manila releases a deleted resource's size), and the project, user and
 * share type it was counted for:
 * - ShareDeleted releases the share's holder (a share requested, or managed and adopted) at its
 *   size, for its owner and type;
 * - SnapshotDeleted releases the snapshot's holder at its size, in the project and for the user
 *   that requested it;
 * - ReplicaDeleted releases the replica holder it names at the share's size (what it counted
 *   plus what the share's resizes since counted for it);
 * - an extend that ends without the new size (the driver failed, the scheduler found no room,
 *   or an admin's reset took its instances out before a node started) gives back what its
 *   request counted;
 * - a shrink that ends with the smaller size counts fewer gigabytes (Manila commits a shrink's
 *   quota only on success);
 * - a managed share is counted once the driver reported its size, even past the limits (Manila
 *   commits it with overquota_allowed; unmanaging it deletes it, which releases it);
 * - a managed snapshot likewise, for the project and user that managed it (Manila's manager adds
 *   its usage without a limit check); one the driver failed to adopt was never counted, so its
 *   deletion gives nothing back;
 * - a revert to a smaller snapshot counts fewer gigabytes once it succeeded; one to a larger
 *   snapshot, counted by its request, gives that back when the driver fails it.
 * Every command's event ids derive from the causing event, so a replay changes nothing twice.
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
    before: initialShareState(),
    after: initialShareState(),
    resizeRequest: undefined,
  }),
  evolve: (state, event) => ({
    before: state.after,
    after: evolveShare(state.after, event),
    resizeRequest:
      event.type === 'ShareResizeRequested'
        ? {
            id: event.id,
            commandId: event.metadata.commandId,
            counted:
              event.data.direction === 'extend'
                ? growthCounted(state.after, event.data.newSize)
                : undefined,
          }
        : state.resizeRequest,
    revertRequest:
      event.type === 'ShareRevertRequested'
        ? {
            id: event.id,
            commandId: event.metadata.commandId,
            counted: growthCounted(
              state.after,
              snapshotsOf(state.after).find((s) => s.id === event.data.snapshotId)?.size,
            ),
          }
        : state.revertRequest,
    counted:
      state.counted === true || event.type === 'ShareRequested' || event.type === 'ShareManaged',
    uncountedSnapshots:
      event.type === 'SnapshotManageRequested'
        ? [...(state.uncountedSnapshots ?? []), event.data.snapshotId]
        : event.type === 'SnapshotManaged'
          ? (state.uncountedSnapshots ?? []).filter((id) => id !== event.data.snapshotId)
          : state.uncountedSnapshots,
  }),
  // Every release names what it gives back, which the share's history knows.
  readsHistory: () => true,
  decide: (event, state) => {
    switch (event.type) {
      case 'ShareDeleted':
        return shareReleased(state);
      case 'ReplicaDeleted':
        return replicaReleased(state, event.data.quotaHolderId, event.data.shareSize);
      case 'SnapshotDeleted':
        return snapshotReleased(state, event.data.snapshotId, event.data.projectId);
      case 'ShareInstanceResized':
      case 'ShareInstanceResizeFailed':
      case 'ShareExtendRefused':
      case 'ShareStatusReset':
        return resizeOutcome(state);
      case 'ShareManaged':
        return managedShareCounted(state, event.data.size);
      case 'SnapshotManaged':
        return managedSnapshotCounted(state, event.data.snapshotId, event.data.size);
      case 'ShareReverted':
      case 'ShareRevertFailed':
        return revertOutcome(state, event.type === 'ShareReverted');
      default:
        return [];
    }
  },
};

/** The project, owner and share type a share's holders count for. */
const subjectsOf = (share: ShareState) =>
  share.kind === 'absent'
    ? undefined
    : {
        projectId: share.projectId,
        userId: share.userId,
        ...(share.shareType && { shareTypeId: share.shareType.id }),
      };

const isReplicated = (share: ShareState): boolean =>
  share.kind !== 'absent' && Boolean(share.capabilities?.replicationType);

/**
 * What a growth to `newSize` counted when the API reserved it (an extend, a revert to a larger
 * snapshot): the difference, once per instance of a replicated share.
 */
const growthCounted = (share: ShareState, newSize: number | undefined): QuotaDeltas | undefined => {
  if (share.kind === 'absent' || newSize === undefined || newSize <= share.size) return undefined;
  return shareResizeDeltas(newSize - share.size, isReplicated(share), share.instances.length);
};

/**
 * A deleted share gives back what it counts at its size (Manila's release of its size), and the
 * growth an extend or a revert still under way counted: a forced delete ends them unsettled.
 */
const shareReleased = ({
  before,
  counted,
  resizeRequest,
  revertRequest,
}: QuotaReleaseState): QuotaReleaseOutput[] => {
  const subjects = subjectsOf(before);
  if (!counted || before.kind === 'absent' || !subjects) return [];
  const extending =
    before.pendingResize?.direction === 'extend' ? resizeRequest?.counted : undefined;
  const reverting = before.instances.some((instance) => instance.status === 'reverting')
    ? revertRequest?.counted
    : undefined;
  const deltas = [extending, reverting].reduce<QuotaDeltas>(
    (sum, growth) => (growth ? addDeltas(sum, growth, 1) : sum),
    shareCreationDeltas(before.size, isReplicated(before)),
  );
  return [{ type: 'ReleaseQuota', ...subjects, holderId: before.id, deltas }];
};

/**
 * A replica's holder counted the share's size when it was added, and every resize since counted
 * the change for it too: it gives back the share's size when it went.
 */
const replicaReleased = (
  { after }: QuotaReleaseState,
  holderId: string | null,
  shareSize: number,
): QuotaReleaseOutput[] => {
  const subjects = subjectsOf(after);
  if (holderId === null || !subjects) return [];
  const deltas = { share_replicas: 1, replica_gigabytes: shareSize };
  return [{ type: 'ReleaseQuota', ...subjects, holderId, deltas }];
};

/** A snapshot gives back its size in the project and for the user that requested it. */
const snapshotReleased = (
  { before, uncountedSnapshots }: QuotaReleaseState,
  snapshotId: string,
  projectId: string | null,
): QuotaReleaseOutput[] => {
  const snapshot = snapshotsOf(before).find((s) => s.id === snapshotId);
  const subjects = subjectsOf(before);
  if (!snapshot || !subjects || uncountedSnapshots?.includes(snapshotId)) return [];
  return [
    {
      type: 'ReleaseQuota',
      projectId: projectId ?? snapshot.projectId,
      userId: snapshot.userId,
      ...(subjects.shareTypeId !== undefined && { shareTypeId: subjects.shareTypeId }),
      holderId: snapshotId,
      deltas: snapshotCreationDeltas(snapshot.size),
    },
  ];
};

/** The quota change a resize outcome calls for, once the share's resize is over. */
const resizeOutcome = ({
  before,
  after,
  resizeRequest,
}: QuotaReleaseState): QuotaReleaseOutput[] => {
  const subjects = subjectsOf(after);
  if (before.kind === 'absent' || after.kind === 'absent' || !subjects) return [];
  const resize = before.pendingResize;
  if (!resize || after.pendingResize || !resizeRequest) return [];
  const sizeChange = after.size - before.size;
  if (resize.direction === 'extend' && sizeChange === 0) {
    if (!resizeRequest.counted) return [];
    return [
      {
        type: 'RevertQuotaAdjustment',
        ...subjects,
        holderId: after.id,
        // The API counted the extend under its command's id.
        adjustmentId: resizeRequest.commandId ?? resizeRequest.id,
        deltas: resizeRequest.counted,
      },
    ];
  }
  if (resize.direction === 'shrink' && sizeChange < 0) {
    return [
      {
        type: 'AdjustQuota',
        ...subjects,
        holderId: after.id,
        adjustmentId: derivedId(resizeRequest.id, 'shrink'),
        deltas: shareResizeDeltas(sizeChange, isReplicated(after), after.instances.length),
        // A decrease is checked against no limit.
        defaults: MANILA_DEFAULT_QUOTAS,
      },
    ];
  }
  return [];
};

/** A managed share's shares and gigabytes, counted under its own holder. */
const managedShareCounted = ({ after }: QuotaReleaseState, size: number): QuotaReleaseOutput[] => {
  const subjects = subjectsOf(after);
  if (after.kind !== 'active' || !subjects) return [];
  return [
    {
      type: 'ReserveQuota',
      ...subjects,
      holderId: after.id,
      holderKind: 'share',
      deltas: shareCreationDeltas(size, isReplicated(after)),
      defaults: MANILA_DEFAULT_QUOTAS,
      overQuotaAllowed: true,
    },
  ];
};

/** A managed snapshot's gigabytes, for the project and user that managed it. */
const managedSnapshotCounted = (
  { after }: QuotaReleaseState,
  snapshotId: string,
  size: number,
): QuotaReleaseOutput[] => {
  const snapshot = snapshotsOf(after).find((s) => s.id === snapshotId);
  const subjects = subjectsOf(after);
  if (!snapshot || !subjects) return [];
  return [
    {
      type: 'ReserveQuota',
      projectId: snapshot.projectId,
      userId: snapshot.userId,
      ...(subjects.shareTypeId !== undefined && { shareTypeId: subjects.shareTypeId }),
      holderId: snapshotId,
      holderKind: 'snapshot',
      deltas: snapshotCreationDeltas(size),
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
  const subjects = subjectsOf(after);
  if (before.kind === 'absent' || after.kind === 'absent' || !revertRequest || !subjects) return [];
  if (!succeeded) {
    // Nothing to give back unless the API counted a larger size under the request's command.
    if (!revertRequest.counted) return [];
    return [
      {
        type: 'RevertQuotaAdjustment',
        ...subjects,
        holderId: after.id,
        adjustmentId: revertRequest.commandId ?? revertRequest.id,
        deltas: revertRequest.counted,
      },
    ];
  }
  const sizeChange = after.size - before.size;
  if (sizeChange >= 0) return [];
  return [
    {
      type: 'AdjustQuota',
      ...subjects,
      holderId: after.id,
      adjustmentId: derivedId(revertRequest.id, 'revert'),
      deltas: shareResizeDeltas(sizeChange, isReplicated(after), after.instances.length),
      // A decrease is checked against no limit.
      defaults: MANILA_DEFAULT_QUOTAS,
    },
  ];
};
