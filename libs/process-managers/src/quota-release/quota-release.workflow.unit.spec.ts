import {
  capabilitiesOf,
  derivedId,
  initialQuotaState,
  MANILA_DEFAULT_QUOTAS,
  type QuotaState,
  type ShareEvent,
} from '#hawser/domain';
import {
  availableShare,
  later,
  now,
  shareRequested,
  snapshotManageRequested,
} from '../../../domain/src/share/test-support/share-history.js';
import { recordedShareEvent, workflowSpec } from '../test-support/workflow-spec.js';
import {
  quotaReleaseWorkflow,
  replicaResizeSettlement,
  type SettleReplicaResizes,
} from './quota-release.workflow.js';

const spec = workflowSpec(quotaReleaseWorkflow);
/** `events` as share s1's stream records them; the resize request under command `c-resize`. */
const recordedAll = (events: ShareEvent[]) =>
  events.map((event, revision) =>
    recordedShareEvent(
      's1',
      revision,
      event,
      event.type === 'ShareResizeRequested'
        ? { commandId: 'c-resize' }
        : event.type === 'ShareRevertRequested'
          ? { commandId: 'c-revert' }
          : {},
    ),
  );

const resizeRequested = (direction: 'extend' | 'shrink', newSize: number): ShareEvent => ({
  type: 'ShareResizeRequested',
  data: { direction, instanceIds: ['i1'], newSize, requestedAt: later },
});
const resized = (newSize: number): ShareEvent => ({
  type: 'ShareInstanceResized',
  data: { instanceId: 'i1', commandId: 'c-node', newSize, resizedAt: later },
});
const resizeFailed: ShareEvent = {
  type: 'ShareInstanceResizeFailed',
  data: {
    instanceId: 'i1',
    commandId: 'c-node',
    message: 'no room',
    possibleDataLoss: false,
    failedAt: later,
  },
};
const replicaDeleted = (quotaHolderId: string | null): ShareEvent => ({
  type: 'ReplicaDeleted',
  data: { replicaId: 'r1', commandId: null, quotaHolderId, shareSize: 2, deletedAt: later },
});
const snapshotDeleted = (projectId: string | null): ShareEvent => ({
  type: 'SnapshotDeleted',
  data: { snapshotId: 'snap1', projectId, deletedAt: later },
});
const snapshotRequested: ShareEvent = {
  type: 'SnapshotRequested',
  data: {
    snapshotId: 'snap1',
    projectId: 'p2',
    userId: 'u2',
    name: null,
    description: null,
    size: 2,
    instances: [{ id: 'si1', shareInstanceId: 'i1' }],
    createdAt: now,
  },
};

/** Decides on the last of `events`, given all of them. */
const onLastOf = (events: ShareEvent[]) => {
  const history = recordedAll(events);
  return spec.given(...history).when(history[history.length - 1]!);
};

describe('quota release workflow', () => {
  it("given a requested share, when it is deleted, then its holder is released in the share's project", () => {
    onLastOf([
      shareRequested(),
      { type: 'ShareDeleted', data: { shareId: 's1', deletedAt: later } },
    ]).then([{ type: 'ReleaseQuota', projectId: 'p1', holderId: 's1' }]);
  });

  it('given a stream that does not start with its request, when the share is deleted, then nothing is released', () => {
    onLastOf([{ type: 'ShareDeleted', data: { shareId: 's1', deletedAt: later } }]).then([]);
  });

  it("given a share with a replica, when the replica is deleted, then the share's resizes for it are settled before its holder is released", () => {
    const history = recordedAll([...availableShare(), replicaDeleted('r1-holder')]);
    const deleted = history[history.length - 1]!;
    spec
      .given(...history)
      .when(deleted)
      .then([
        {
          type: 'SettleReplicaResizes',
          projectId: 'p1',
          holderId: 'r1-holder',
          shareId: 's1',
          shareSize: 2,
          adjustmentId: derivedId(deleted.id, 'replica-resizes'),
        },
        { type: 'ReleaseQuota', projectId: 'p1', holderId: 'r1-holder' },
      ]);
  });

  it('when a replica that no quota holder counts is deleted, then nothing is released', () => {
    onLastOf([...availableShare(), replicaDeleted(null)]).then([]);
  });

  it('when a snapshot naming its project is deleted, then that project releases it, without reading the history', () => {
    const deleted = recordedShareEvent('s1', 9, snapshotDeleted('p2'));
    expect(quotaReleaseWorkflow.readsHistory(deleted)).toBe(false);
    spec
      .given()
      .when(deleted)
      .then([{ type: 'ReleaseQuota', projectId: 'p2', holderId: 'snap1' }]);
  });

  it('given a snapshot requested by another project, when its deletion written before events named the project is handled, then the requesting project releases it', () => {
    onLastOf([...availableShare(), snapshotRequested, snapshotDeleted(null)]).then([
      { type: 'ReleaseQuota', projectId: 'p2', holderId: 'snap1' },
    ]);
  });

  it('given an extend, when the driver fails it, then what its request counted is given back', () => {
    onLastOf([...availableShare(), resizeRequested('extend', 5), resizeFailed]).then([
      { type: 'RevertQuotaAdjustment', projectId: 'p1', holderId: 's1', adjustmentId: 'c-resize' },
    ]);
  });

  it('given an extend, when it succeeds, then the quota stays as counted', () => {
    onLastOf([...availableShare(), resizeRequested('extend', 5), resized(5)]).then([]);
  });

  it('given a shrink, when it succeeds, then the quota counts the fewer gigabytes once', () => {
    const history = recordedAll([...availableShare(), resizeRequested('shrink', 1), resized(1)]);
    spec
      .given(...history)
      .when(history[history.length - 1]!)
      .then([
        {
          type: 'AdjustQuota',
          projectId: 'p1',
          holderId: 's1',
          adjustmentId: derivedId(history[4]!.id, 'shrink'),
          deltas: { gigabytes: -1 },
          defaults: MANILA_DEFAULT_QUOTAS,
        },
      ]);
  });

  it('given a shrink, when the driver fails it, then the quota stays as counted', () => {
    onLastOf([...availableShare(), resizeRequested('shrink', 1), resizeFailed]).then([]);
  });

  it('given a share being managed, when the driver adopted it, then its reported size is counted even past the limits, and released when it goes', () => {
    const specs = { driver_handles_share_servers: 'False' };
    const manageRequested: ShareEvent = {
      type: 'ShareManageRequested',
      data: {
        shareId: 's1',
        instanceId: 'i1',
        projectId: 'p1',
        userId: 'admin',
        name: null,
        description: null,
        shareProto: 'NFS',
        shareType: { id: 't1', name: 'default', extraSpecs: specs },
        capabilities: capabilitiesOf(specs),
        host: 'node1@b1#p1',
        availabilityZone: null,
        exportPath: '/srv/old',
        driverOptions: {},
        isPublic: false,
        createdAt: now,
      },
    };
    const managed: ShareEvent = {
      type: 'ShareManaged',
      data: { instanceId: 'i1', commandId: 'c-m', size: 3, exportLocations: [], managedAt: later },
    };
    onLastOf([manageRequested, managed]).then([
      {
        type: 'ReserveQuota',
        projectId: 'p1',
        holderId: 's1',
        holderKind: 'share',
        deltas: { shares: 1, gigabytes: 3 },
        defaults: MANILA_DEFAULT_QUOTAS,
        overQuotaAllowed: true,
      },
    ]);
    onLastOf([
      manageRequested,
      managed,
      { type: 'ShareDeleted', data: { shareId: 's1', deletedAt: later } },
    ]).then([{ type: 'ReleaseQuota', projectId: 'p1', holderId: 's1' }]);
  });

  it('given a snapshot being managed, when the driver adopted it, then its reported size is counted in the managing project even past the limits, and released when it goes', () => {
    const ref = { snapshotId: 'snap1', snapshotInstanceId: 'si1' };
    const manageRequested = snapshotManageRequested(ref);
    const managed: ShareEvent = {
      type: 'SnapshotManaged',
      data: {
        ...ref,
        commandId: 'c-m',
        size: 4,
        providerLocation: 'old-snap',
        exportLocations: [],
        managedAt: later,
      },
    };
    onLastOf([...availableShare(), manageRequested, managed]).then([
      {
        type: 'ReserveQuota',
        projectId: 'admin-p',
        holderId: 'snap1',
        holderKind: 'snapshot',
        deltas: { snapshots: 1, snapshot_gigabytes: 4 },
        defaults: MANILA_DEFAULT_QUOTAS,
        overQuotaAllowed: true,
      },
    ]);
    onLastOf([...availableShare(), manageRequested, managed, snapshotDeleted('admin-p')]).then([
      { type: 'ReleaseQuota', projectId: 'admin-p', holderId: 'snap1' },
    ]);
  });

  describe('revert to snapshot', () => {
    const ref = { snapshotId: 'snap1', snapshotInstanceId: 'si1' };
    const revertRequested: ShareEvent = {
      type: 'ShareRevertRequested',
      data: { ...ref, instanceId: 'i1', requestedAt: later },
    };
    const reverted = (size: number): ShareEvent => ({
      type: 'ShareReverted',
      data: { ...ref, instanceId: 'i1', commandId: 'c-node', size, revertedAt: later },
    });
    const revertFailed: ShareEvent = {
      type: 'ShareRevertFailed',
      data: { ...ref, instanceId: 'i1', commandId: 'c-node', message: 'no', failedAt: later },
    };

    it('given a revert to a smaller snapshot, when it succeeds, then the quota counts the fewer gigabytes', () => {
      const history = recordedAll([...availableShare(), revertRequested, reverted(1)]);
      spec
        .given(...history)
        .when(history[history.length - 1]!)
        .then([
          {
            type: 'AdjustQuota',
            projectId: 'p1',
            holderId: 's1',
            adjustmentId: derivedId(history[4]!.id, 'revert'),
            deltas: { gigabytes: -1 },
            defaults: MANILA_DEFAULT_QUOTAS,
          },
        ]);
    });

    it('given a revert to a snapshot of the same or a larger size, when it succeeds, then the quota stays as counted', () => {
      onLastOf([...availableShare(), revertRequested, reverted(2)]).then([]);
      onLastOf([...availableShare(), revertRequested, reverted(4)]).then([]);
    });

    it('given a revert, when the driver fails it, then what its request counted is given back', () => {
      onLastOf([...availableShare(), revertRequested, revertFailed]).then([
        {
          type: 'RevertQuotaAdjustment',
          projectId: 'p1',
          holderId: 's1',
          adjustmentId: 'c-revert',
        },
      ]);
    });
  });

  it("settles a replica's resizes on the share's holder by the difference from what the replica holds", () => {
    const settle: SettleReplicaResizes = {
      type: 'SettleReplicaResizes',
      projectId: 'p1',
      holderId: 'r1-holder',
      shareId: 's1',
      shareSize: 5,
      adjustmentId: 'adj',
    };
    const holding = (replicaGiB: number) => ({
      holderKind: 'share',
      deltas: { replica_gigabytes: replicaGiB },
    });
    const quota = (holdings: QuotaState['holdings']): QuotaState => ({
      ...initialQuotaState(),
      holdings,
    });

    expect(
      replicaResizeSettlement(quota({ 'r1-holder': holding(2), s1: holding(10) }), settle),
    ).toEqual({
      type: 'AdjustQuota',
      projectId: 'p1',
      holderId: 's1',
      adjustmentId: 'adj',
      deltas: { replica_gigabytes: -3 },
      defaults: MANILA_DEFAULT_QUOTAS,
    });
    expect(
      replicaResizeSettlement(quota({ 'r1-holder': holding(5), s1: holding(10) }), settle),
    ).toBeUndefined();
    expect(replicaResizeSettlement(quota({ s1: holding(10) }), settle)).toBeUndefined();
    expect(replicaResizeSettlement(quota({ 'r1-holder': holding(2) }), settle)).toBeUndefined();
  });
});
