import { fold } from '../shared/decider.js';
import { deciderSpec } from '../test-support/decider-spec.js';
import type { ShareCommandType } from './share.commands.js';
import { shareDecider } from './share.decide.js';
import type { ShareEvent, ShareEventType } from './share.events.js';
import { composeSlices, type ShareSlice } from './share.slice.js';
import { SHARE_SLICES } from './share.slices.js';
import type { ShareState } from './share.state.js';
import {
  activeShareAfter,
  availableShare,
  claimed,
  now,
  shareRequested,
} from './test-support/share-history.js';

// Records keyed by the unions: the compiler refuses one that leaves a type out or names another.
const EVERY_COMMAND_TYPE: Record<ShareCommandType, true> = {
  RequestShare: true,
  ScheduleShareInstance: true,
  FailShareInstanceScheduling: true,
  StartDriverOperation: true,
  CompleteShareInstanceCreation: true,
  FailShareInstanceCreation: true,
  UpdateShare: true,
  ChangeShareMetadata: true,
  ResetShareStatus: true,
  DeleteShare: true,
  CompleteShareInstanceDeletion: true,
  FailShareInstanceDeletion: true,
  RequestSnapshot: true,
  CompleteSnapshotInstanceCreation: true,
  FailSnapshotInstanceCreation: true,
  UpdateSnapshot: true,
  ChangeSnapshotMetadata: true,
  ResetSnapshotStatus: true,
  DeleteSnapshot: true,
  CompleteSnapshotInstanceDeletion: true,
  FailSnapshotInstanceDeletion: true,
  CompleteReplicatedSnapshotCreation: true,
  FailReplicatedSnapshotCreation: true,
  CompleteReplicatedSnapshotDeletion: true,
  FailReplicatedSnapshotDeletion: true,
  RefreshReplicaSnapshot: true,
  AllowAccess: true,
  ChangeAccessRuleMetadata: true,
  DenyAccess: true,
  CompleteAccessUpdate: true,
  FailAccessUpdate: true,
  ResizeShare: true,
  ConfirmShareExtendCapacity: true,
  RefuseShareExtend: true,
  CompleteShareInstanceResize: true,
  FailShareInstanceResize: true,
  RejectSharePlacement: true,
  RejectReplicaPlacement: true,
  RecordShareCreationDeferred: true,
  RecordShareStatusPoll: true,
  RequestReplica: true,
  ScheduleReplica: true,
  FailReplicaScheduling: true,
  CompleteReplicaCreation: true,
  FailReplicaCreation: true,
  DeleteReplica: true,
  CompleteReplicaDeletion: true,
  FailReplicaDeletion: true,
  PromoteReplica: true,
  CompleteReplicaPromotion: true,
  FailReplicaPromotion: true,
  ResyncReplica: true,
  RefreshReplicaState: true,
  ResetReplicaStatus: true,
  ResetReplicaState: true,
  LinkAffinity: true,
  UnlinkAffinity: true,
  RevertShareToSnapshot: true,
  CompleteShareRevert: true,
  FailShareRevert: true,
  ManageShare: true,
  CompleteShareManage: true,
  FailShareManage: true,
  UnmanageShare: true,
  CompleteShareUnmanage: true,
  FailShareUnmanage: true,
  ManageSnapshot: true,
  CompleteSnapshotManage: true,
  FailSnapshotManage: true,
  UnmanageSnapshot: true,
  CompleteSnapshotUnmanage: true,
  FailSnapshotUnmanage: true,
  AllowSnapshotAccess: true,
  DenySnapshotAccess: true,
  CompleteSnapshotAccessUpdate: true,
  FailSnapshotAccessUpdate: true,
  SoftDeleteShare: true,
  RestoreShare: true,
  DeleteExpiredShare: true,
  StartShareMigration: true,
  AcceptShareMigrationHost: true,
  ChooseShareMigrationMethod: true,
  RecordShareMigrationCopy: true,
  RecordShareMigrationProgress: true,
  CompleteShareMigration: true,
  RecordShareMigrationCompleted: true,
  CancelShareMigration: true,
  RecordShareMigrationCancelled: true,
  FailShareMigration: true,
  ResetShareTaskState: true,
};

const EVERY_EVENT_TYPE: Record<ShareEventType, true> = {
  ShareRequested: true,
  ShareScheduled: true,
  ShareSchedulingFailed: true,
  ShareDriverOperationStarted: true,
  ShareCreated: true,
  ShareCreationFailed: true,
  ShareUpdated: true,
  ShareMetadataChanged: true,
  ShareStatusReset: true,
  ShareDeletionRequested: true,
  ShareInstanceDeleted: true,
  ShareDeletionFailed: true,
  ShareDeleted: true,
  ReservationExpired: true,
  ShareSoftDeleted: true,
  ShareRestored: true,
  SnapshotRequested: true,
  SnapshotInstanceCreated: true,
  SnapshotInstanceCreationFailed: true,
  SnapshotUpdated: true,
  SnapshotMetadataChanged: true,
  SnapshotStatusReset: true,
  SnapshotDeletionRequested: true,
  SnapshotInstanceDeleted: true,
  SnapshotInstanceDeletionFailed: true,
  SnapshotDeleted: true,
  ReplicatedSnapshotCreated: true,
  ReplicatedSnapshotCreationFailed: true,
  ReplicatedSnapshotInstancesDeleted: true,
  ReplicatedSnapshotDeletionFailed: true,
  ReplicaSnapshotRefreshed: true,
  ShareAccessAllowed: true,
  AccessRuleMetadataChanged: true,
  ShareAccessDenied: true,
  ShareAccessUpdated: true,
  ShareAccessUpdateFailed: true,
  ShareResizeRequested: true,
  ShareExtendCapacityConfirmed: true,
  ShareExtendRefused: true,
  ShareInstanceResized: true,
  ShareInstanceResizeFailed: true,
  SharePlacementRejected: true,
  ReplicaPlacementRejected: true,
  ShareCreationDeferred: true,
  ShareCreationProgressed: true,
  ReplicaRequested: true,
  ReplicaScheduled: true,
  ReplicaSchedulingFailed: true,
  ReplicaCreated: true,
  ReplicaCreationFailed: true,
  ReplicaDeletionRequested: true,
  ReplicaDeleted: true,
  ReplicaDeletionFailed: true,
  ReplicaPromotionRequested: true,
  ReplicaPromoted: true,
  ReplicaPromotionFailed: true,
  ReplicaResyncRequested: true,
  ReplicaStateRefreshed: true,
  ReplicaStateReset: true,
  ShareRevertRequested: true,
  ShareReverted: true,
  ShareRevertFailed: true,
  ShareManageRequested: true,
  ShareManaged: true,
  ShareManageFailed: true,
  ShareUnmanageRequested: true,
  ShareUnmanaged: true,
  ShareUnmanageFailed: true,
  SnapshotManageRequested: true,
  SnapshotManaged: true,
  SnapshotManageFailed: true,
  SnapshotUnmanageRequested: true,
  SnapshotUnmanaged: true,
  SnapshotUnmanageFailed: true,
  SnapshotAccessAllowed: true,
  SnapshotAccessDenied: true,
  SnapshotAccessUpdated: true,
  SnapshotAccessUpdateFailed: true,
  ShareMigrationStarted: true,
  ShareMigrationSkipped: true,
  ShareMigrationHostAccepted: true,
  ShareMigrationMethodSelected: true,
  ShareMigrationReadOnlyAccessQueued: true,
  ShareMigrationCopyStarted: true,
  ShareMigrationProgressed: true,
  ShareMigrationFirstPhaseCompleted: true,
  ShareMigrationCompletionRequested: true,
  ShareMigrationCompleted: true,
  ShareMigrationCancelRequested: true,
  ShareMigrationCancelled: true,
  ShareMigrationFailed: true,
  ShareTaskStateReset: true,
};

const claimsOf = (types: (slice: ShareSlice) => readonly string[], type: string): number =>
  SHARE_SLICES.filter((slice) => types(slice).includes(type)).length;

const spec = deciderSpec(shareDecider);

const deletedShare: ShareEvent[] = [
  shareRequested(),
  { type: 'ShareDeletionRequested', data: { instanceIds: ['i1'], force: false, requestedAt: now } },
  { type: 'ShareInstanceDeleted', data: { instanceId: 'i1', commandId: null, deletedAt: now } },
  { type: 'ShareDeleted', data: { shareId: 's1', deletedAt: now } },
];

describe('share decider: the table of slices', () => {
  it.each(Object.keys(EVERY_COMMAND_TYPE))('decides %s in exactly one slice', (type) => {
    expect(claimsOf((s) => s.commandTypes, type)).toBe(1);
  });

  it.each(Object.keys(EVERY_EVENT_TYPE))('evolves %s in exactly one slice', (type) => {
    expect(claimsOf((s) => s.eventTypes, type)).toBe(1);
  });

  it('claims no type beyond the share commands and events', () => {
    const commands = SHARE_SLICES.flatMap((s) => s.commandTypes);
    const events = SHARE_SLICES.flatMap((s) => s.eventTypes);
    expect(commands).toHaveLength(Object.keys(EVERY_COMMAND_TYPE).length);
    expect(events).toHaveLength(Object.keys(EVERY_EVENT_TYPE).length);
  });

  it('refuses to compose two slices that claim the same command type', () => {
    const [first] = SHARE_SLICES;
    expect(first).toBeDefined();
    const twice = [first, first] as ShareSlice[];
    expect(() => composeSlices(twice)).toThrow(/RequestShare is claimed by two share slices/);
  });
});

describe('share decider: absent, active and deleted', () => {
  it('given no share, a command other than its request is not found', () => {
    spec
      .given([])
      .when({ type: 'UpdateShare', name: 'b', now })
      .thenThrows('not_found', /could not be found/);
  });

  it('given a deleted share, a command names it as not found', () => {
    spec
      .given(deletedShare)
      .when({ type: 'UpdateShare', name: 'b', now })
      .thenThrows('not_found', /Share s1 could not be found/);
  });

  it('given a deleted share, its request again is refused as existing', () => {
    const request = shareRequested();
    if (request.type !== 'ShareRequested') throw new Error('the history starts with a request');
    spec
      .given(deletedShare)
      .when({ type: 'RequestShare', ...request.data })
      .thenThrows('conflict', /Share s1 exists already/);
  });

  it('given a share, a deleted share keeps its fields with no instances', () => {
    const state = fold(shareDecider, deletedShare);
    expect(state).toMatchObject({ kind: 'deleted', id: 's1', instances: [] });
  });

  it("given no share, a reservation's fence is kept, and its request then starts the share", () => {
    const fenced = fold(shareDecider, [
      { type: 'ReservationExpired', data: { reservationId: 'x1', expiredAt: now } },
    ]);
    expect(fenced).toEqual({ kind: 'absent', expiredReservations: ['x1'] });
    const requested = shareDecider.evolve(fenced, shareRequested());
    expect(requested).toMatchObject({ kind: 'active', id: 's1' });
  });

  it('given a share state stored with the lifecycle field of older versions, folds it as the union', () => {
    const { kind: _kind, ...fields } = activeShareAfter(availableShare());
    const stored = { ...fields, lifecycle: 'active' } as unknown as ShareState;
    const after = shareDecider.evolve(stored, claimed('delete_share', 'c-del'));
    expect(after).toMatchObject({ kind: 'active', id: 's1' });
    expect(after).not.toHaveProperty('lifecycle');
    const storedAbsent = { ...fields, lifecycle: 'absent' } as unknown as ShareState;
    expect(
      shareDecider.evolve(storedAbsent, {
        type: 'ReservationExpired',
        data: { reservationId: 'x1', expiredAt: now },
      }),
    ).toEqual({ kind: 'absent', expiredReservations: ['x1'] });
  });
});
