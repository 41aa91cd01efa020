import { deciderSpec } from '../test-support/decider-spec.js';
import { snapshotInstanceIdOf } from './share-snapshot.state.js';
import { shareDecider } from './share.decide.js';
import type { ShareCommand } from './share.commands.js';
import type { ShareEvent } from './share.events.js';
import {
  activeShareAfter,
  availableShare,
  claimed,
  later,
  now,
  replicaRequested,
  snapshotManageRequested,
} from './test-support/share-history.js';

const spec = deciderSpec(shareDecider);
const ref = { snapshotId: 'snap1', snapshotInstanceId: snapshotInstanceIdOf('snap1', 'i1') };
const manage: ShareCommand = {
  type: 'ManageSnapshot',
  snapshotId: 'snap1',
  projectId: 'admin-p',
  userId: 'admin',
  name: 'adopted',
  description: null,
  metadata: {},
  providerLocation: 'old-snap',
  driverOptions: {},
  now: later,
};
const manageRequested = snapshotManageRequested(ref);
const managing = [...availableShare(), manageRequested, claimed('manage_snapshot', 'c-m', ref)];
const completeManage = (exportLocations = [] as { id: string; path: string }[]) => ({
  type: 'CompleteSnapshotManage' as const,
  ...ref,
  commandId: 'c-m',
  size: 3,
  providerLocation: 'old-snap',
  exportLocations: exportLocations.map((l) => ({ ...l, preferred: true, isAdminOnly: false })),
  now: later,
});
const managed: ShareEvent = {
  type: 'SnapshotManaged',
  data: {
    ...ref,
    commandId: 'c-m',
    size: 3,
    providerLocation: 'old-snap',
    exportLocations: [],
    managedAt: later,
  },
};
const managedSnapshot = [...managing, managed];
const unmanageRequested: ShareEvent = {
  type: 'SnapshotUnmanageRequested',
  data: { ...ref, shareInstanceId: 'i1', requestedAt: later },
};
const snapshotAfter = (events: ShareEvent[]) => activeShareAfter(events).snapshots[0];

describe('share decider: snapshot manage and unmanage (DHSS=False, 2.12)', () => {
  it("adopts a snapshot of the share: one instance, manage_starting, the share's size (2) until reported", () => {
    spec.given(availableShare()).when(manage).then([manageRequested]);
    expect(snapshotAfter([...availableShare(), manageRequested])).toMatchObject({
      size: 2,
      projectId: 'admin-p',
      instances: [{ status: 'manage_starting', progress: '0%', providerLocation: 'old-snap' }],
    });
  });

  it('refuses a provider location another snapshot of the share already has (409)', () =>
    spec
      .given(managedSnapshot)
      .when({ ...manage, snapshotId: 'snap2' })
      .thenThrows('conflict', /already managed for provider location old-snap/));

  it('refuses a share with replicas (409)', () =>
    spec
      .given([...availableShare(), replicaRequested()])
      .when(manage)
      .thenThrows('conflict', /has replicas. Snapshots of this share cannot currently be managed/));

  it('refuses a share in the recycle bin (403)', () =>
    spec
      .given([
        ...availableShare(),
        {
          type: 'ShareSoftDeleted',
          data: { scheduledToBeDeletedAt: later, softDeletedAt: later },
        },
      ])
      .when(manage)
      .thenThrows(
        'forbidden',
        /Can not manage snapshot for share 's1' since it has been soft deleted/,
      ));

  it('is available, 100%, with the size the driver reported once adopted', () => {
    spec.given(managing).when(completeManage()).then([managed]);
    expect(snapshotAfter(managedSnapshot)).toMatchObject({
      size: 3,
      instances: [{ status: 'available', progress: '100%' }],
    });
    expect(activeShareAfter(managedSnapshot).instances[0]?.pendingOperation).toBeNull();
  });

  it("takes the share's size when the driver reports none, and keeps no export location unless snapshots mount", () =>
    spec
      .given(managing)
      .when({ ...completeManage([{ id: 'el', path: 'h:/snap' }]), size: null })
      .then([{ ...managed, data: { ...managed.data, size: 2 } } as ShareEvent]));

  it('records nothing for an outcome whose claim is not open', () =>
    spec.given(managedSnapshot).when(completeManage()).then([]));

  it('is manage_error with size 1 when the driver could not adopt it', () => {
    const failed: ShareEvent = {
      type: 'SnapshotManageFailed',
      data: { ...ref, commandId: 'c-m', message: 'no such snapshot', failedAt: later },
    };
    spec
      .given(managing)
      .when({
        type: 'FailSnapshotManage',
        ...ref,
        commandId: 'c-m',
        message: 'no such snapshot',
        now: later,
      })
      .then([failed]);
    expect(snapshotAfter([...managing, failed])).toMatchObject({
      size: 1,
      instances: [{ status: 'manage_error' }],
    });
  });

  it('unmanages an available snapshot: unmanage_starting', () => {
    spec
      .given(managedSnapshot)
      .when({ type: 'UnmanageSnapshot', snapshotId: 'snap1', now: later })
      .then([unmanageRequested]);
    expect(snapshotAfter([...managedSnapshot, unmanageRequested])?.instances[0]?.status).toBe(
      'unmanage_starting',
    );
  });

  it('refuses to unmanage a snapshot in a transitional state (403), and an unknown one (404)', () => {
    spec
      .given([...availableShare(), manageRequested])
      .when({ type: 'UnmanageSnapshot', snapshotId: 'snap1', now: later })
      .thenThrows('forbidden', /transitional state.*'manage_starting' state/);
    spec
      .given(availableShare())
      .when({ type: 'UnmanageSnapshot', snapshotId: 'nope', now: later })
      .thenThrows('not_found');
  });

  it('forgets the snapshot once the driver let it go: its instance and itself are deleted', () => {
    const history = [
      ...managedSnapshot,
      unmanageRequested,
      claimed('unmanage_snapshot', 'c-u', ref),
    ];
    spec
      .given(history)
      .when({ type: 'CompleteSnapshotUnmanage', ...ref, commandId: 'c-u', now: later })
      .then([
        { type: 'SnapshotUnmanaged', data: { ...ref, commandId: 'c-u', unmanagedAt: later } },
        {
          type: 'SnapshotInstanceDeleted',
          data: { ...ref, commandId: null, deletedAt: later },
        },
        {
          type: 'SnapshotDeleted',
          data: { snapshotId: 'snap1', projectId: 'admin-p', deletedAt: later },
        },
      ]);
  });

  it('is unmanage_error when the driver refuses to let it go', () => {
    const history = [
      ...managedSnapshot,
      unmanageRequested,
      claimed('unmanage_snapshot', 'c-u', ref),
    ];
    const failed: ShareEvent = {
      type: 'SnapshotUnmanageFailed',
      data: { ...ref, commandId: 'c-u', message: 'busy', failedAt: later },
    };
    spec
      .given(history)
      .when({ type: 'FailSnapshotUnmanage', ...ref, commandId: 'c-u', message: 'busy', now: later })
      .then([failed]);
    expect(snapshotAfter([...history, failed])?.instances[0]?.status).toBe('unmanage_error');
  });

  it('claims the manage for the node only while the snapshot is manage_starting', () => {
    const claim = {
      type: 'StartDriverOperation' as const,
      instanceId: 'i1',
      operation: 'manage_snapshot' as const,
      commandId: 'c-again',
      host: 'node1@b1#p1',
      ...ref,
      now,
    };
    spec.given(managedSnapshot).when(claim).then([]);
  });
});
