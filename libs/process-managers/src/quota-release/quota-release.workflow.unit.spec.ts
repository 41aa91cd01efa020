import { capabilitiesOf, derivedId, MANILA_DEFAULT_QUOTAS, type ShareEvent } from '#hawser/domain';
import {
  availableShare,
  later,
  now,
  shareRequested,
  snapshotManageRequested,
} from '../../../domain/src/share/test-support/share-history.js';
import { recordedShareEvent, workflowSpec } from '../test-support/workflow-spec.js';
import { quotaReleaseWorkflow } from './quota-release.workflow.js';

const spec = workflowSpec(quotaReleaseWorkflow);
/** The share's owner and type in the share history's request. */
const owner = { projectId: 'p1', userId: 'u1', shareTypeId: 't1' };
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
  it("given a requested share, when it is deleted, then its holder gives back its size in the share's project, for its owner and type", () => {
    onLastOf([
      shareRequested(),
      { type: 'ShareDeleted', data: { shareId: 's1', deletedAt: later } },
    ]).then([
      { type: 'ReleaseQuota', ...owner, holderId: 's1', deltas: { shares: 1, gigabytes: 2 } },
    ]);
  });

  it('given an extended share, when it is deleted, then it gives back its size after the extend', () => {
    onLastOf([
      ...availableShare(),
      resizeRequested('extend', 5),
      resized(5),
      { type: 'ShareDeleted', data: { shareId: 's1', deletedAt: later } },
    ]).then([
      { type: 'ReleaseQuota', ...owner, holderId: 's1', deltas: { shares: 1, gigabytes: 5 } },
    ]);
  });

  it('given an extend still under way, when the share is deleted by force, then it gives back its size and what the extend counted', () => {
    onLastOf([
      ...availableShare(),
      resizeRequested('extend', 5),
      { type: 'ShareDeleted', data: { shareId: 's1', deletedAt: later } },
    ]).then([
      { type: 'ReleaseQuota', ...owner, holderId: 's1', deltas: { shares: 1, gigabytes: 5 } },
    ]);
  });

  it('given a stream that does not start with its request, when the share is deleted, then nothing is released', () => {
    onLastOf([{ type: 'ShareDeleted', data: { shareId: 's1', deletedAt: later } }]).then([]);
  });

  it("given a share with a replica, when the replica is deleted, then its holder gives back the share's size", () => {
    onLastOf([...availableShare(), replicaDeleted('r1-holder')]).then([
      {
        type: 'ReleaseQuota',
        ...owner,
        holderId: 'r1-holder',
        deltas: { share_replicas: 1, replica_gigabytes: 2 },
      },
    ]);
  });

  it('when a replica that no quota holder counts is deleted, then nothing is released', () => {
    onLastOf([...availableShare(), replicaDeleted(null)]).then([]);
  });

  it('given a snapshot requested by another project, when it is deleted, then the requesting project and user get back its size', () => {
    const snapshotRelease = {
      type: 'ReleaseQuota' as const,
      projectId: 'p2',
      userId: 'u2',
      shareTypeId: 't1',
      holderId: 'snap1',
      deltas: { snapshots: 1, snapshot_gigabytes: 2 },
    };
    onLastOf([...availableShare(), snapshotRequested, snapshotDeleted('p2')]).then([
      snapshotRelease,
    ]);
    // A deletion written before events named the project.
    onLastOf([...availableShare(), snapshotRequested, snapshotDeleted(null)]).then([
      snapshotRelease,
    ]);
  });

  it('given an extend, when the driver fails it, then what its request counted is given back', () => {
    onLastOf([...availableShare(), resizeRequested('extend', 5), resizeFailed]).then([
      {
        type: 'RevertQuotaAdjustment',
        ...owner,
        holderId: 's1',
        adjustmentId: 'c-resize',
        deltas: { gigabytes: 3 },
      },
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
          ...owner,
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
        userId: 'admin',
        shareTypeId: 't1',
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
    ]).then([
      {
        type: 'ReleaseQuota',
        projectId: 'p1',
        userId: 'admin',
        shareTypeId: 't1',
        holderId: 's1',
        deltas: { shares: 1, gigabytes: 3 },
      },
    ]);
    // A share the driver never adopted was never counted.
    onLastOf([
      manageRequested,
      { type: 'ShareDeleted', data: { shareId: 's1', deletedAt: later } },
    ]).then([]);
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
        userId: 'admin',
        shareTypeId: owner.shareTypeId,
        holderId: 'snap1',
        holderKind: 'snapshot',
        deltas: { snapshots: 1, snapshot_gigabytes: 4 },
        defaults: MANILA_DEFAULT_QUOTAS,
        overQuotaAllowed: true,
      },
    ]);
    onLastOf([...availableShare(), manageRequested, managed, snapshotDeleted('admin-p')]).then([
      {
        type: 'ReleaseQuota',
        projectId: 'admin-p',
        userId: 'admin',
        shareTypeId: owner.shareTypeId,
        holderId: 'snap1',
        deltas: { snapshots: 1, snapshot_gigabytes: 4 },
      },
    ]);
    // A snapshot the driver never adopted was never counted, so its deletion gives nothing back.
    onLastOf([...availableShare(), manageRequested, snapshotDeleted('admin-p')]).then([]);
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
            ...owner,
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

    it('given a revert to a larger snapshot, when the driver fails it, then what its request counted is given back', () => {
      const grown: ShareEvent = {
        type: 'ShareInstanceResized',
        data: { instanceId: 'i1', commandId: 'c-node', newSize: 4, resizedAt: later },
      };
      const shrunk = [resizeRequested('shrink', 2), resized(2)];
      // The snapshot was taken at 4 GiB; the share shrank to 2 since.
      onLastOf([
        ...availableShare(),
        resizeRequested('extend', 4),
        grown,
        { ...snapshotRequested, data: { ...snapshotRequested.data, size: 4 } } as ShareEvent,
        ...shrunk,
        revertRequested,
        revertFailed,
      ]).then([
        {
          type: 'RevertQuotaAdjustment',
          ...owner,
          holderId: 's1',
          adjustmentId: 'c-revert',
          deltas: { gigabytes: 2 },
        },
      ]);
    });

    it('given a revert to a snapshot no larger than the share, when the driver fails it, then nothing was counted to give back', () => {
      onLastOf([...availableShare(), snapshotRequested, revertRequested, revertFailed]).then([]);
    });
  });
});
