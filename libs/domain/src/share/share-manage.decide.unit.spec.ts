import { deciderSpec } from '../test-support/decider-spec.js';
import { capabilitiesOf } from '../share-type/extra-specs.js';
import { shareDecider } from './share.decide.js';
import type { ShareEvent } from './share.events.js';
import type { ShareState } from './share.state.js';
import { fold } from '../shared/decider.js';
import {
  HOST,
  availableShare,
  later,
  now,
  operationStarted,
} from './test-support/share-history.js';

const spec = deciderSpec(shareDecider);
const specs = { driver_handles_share_servers: 'False' };
const manageData = {
  shareId: 's1',
  instanceId: 'i1',
  projectId: 'p1',
  userId: 'admin',
  name: 'adopted',
  description: null,
  shareProto: 'NFS',
  shareType: { id: 't1', name: 'default', extraSpecs: specs },
  capabilities: capabilitiesOf(specs),
  host: HOST,
  availabilityZone: 'az-1',
  exportPath: '/srv/old',
  driverOptions: {},
  isPublic: false,
  createdAt: now,
};
const manageRequested: ShareEvent = { type: 'ShareManageRequested', data: manageData };
const claimed = (operation: 'manage_share' | 'unmanage_share', commandId: string) =>
  operationStarted('i1', HOST, operation, commandId, now);
const managed: ShareEvent = {
  type: 'ShareManaged',
  data: { instanceId: 'i1', commandId: 'c-m', size: 3, exportLocations: [], managedAt: later },
};
const managedShare = [manageRequested, claimed('manage_share', 'c-m'), managed];
const unmanageRequested: ShareEvent = {
  type: 'ShareUnmanageRequested',
  data: { instanceId: 'i1', requestedAt: later },
};
const stateAfter = (events: ShareEvent[]): ShareState => fold(shareDecider, events);
const statusAfter = (events: ShareEvent[]) => {
  const state = stateAfter(events);
  return state.kind === 'absent' ? undefined : state.instances[0]?.status;
};

describe('share decider: manage and unmanage (DHSS=False)', () => {
  it('adopts a share on an absent stream: manage_starting on its pool, no size yet', () => {
    spec
      .given([])
      .when({ type: 'ManageShare', ...manageData })
      .then([manageRequested]);
    const state = stateAfter([manageRequested]);
    expect(state).toMatchObject({ kind: 'active', size: 0 });
    expect(statusAfter([manageRequested])).toBe('manage_starting');
  });

  it('refuses to manage onto a stream that holds a share (409)', () =>
    spec
      .given(availableShare())
      .when({ type: 'ManageShare', ...manageData })
      .thenThrows('conflict'));

  it('is available with the size the driver reported once adopted', () => {
    spec
      .given([manageRequested, claimed('manage_share', 'c-m')])
      .when({
        type: 'CompleteShareManage',
        instanceId: 'i1',
        commandId: 'c-m',
        size: 3,
        exportLocations: [],
        now: later,
      })
      .then([managed]);
    expect(stateAfter(managedShare)).toMatchObject({ size: 3 });
    expect(statusAfter(managedShare)).toBe('available');
  });

  it('is manage_error with size 0 when the driver cannot adopt it', () => {
    const failed: ShareEvent = {
      type: 'ShareManageFailed',
      data: { instanceId: 'i1', commandId: 'c-m', message: 'no', failedAt: later },
    };
    spec
      .given([manageRequested, claimed('manage_share', 'c-m')])
      .when({
        type: 'FailShareManage',
        instanceId: 'i1',
        commandId: 'c-m',
        message: 'no',
        now: later,
      })
      .then([failed]);
    expect(statusAfter([manageRequested, claimed('manage_share', 'c-m'), failed])).toBe(
      'manage_error',
    );
  });

  it('unmanages an available share without snapshots: unmanage_starting, then deleted', () => {
    spec.given(managedShare).when({ type: 'UnmanageShare', now: later }).then([unmanageRequested]);
    const history = [...managedShare, unmanageRequested, claimed('unmanage_share', 'c-u')];
    spec
      .given(history)
      .when({ type: 'CompleteShareUnmanage', instanceId: 'i1', commandId: 'c-u', now: later })
      .then([
        {
          type: 'ShareUnmanaged',
          data: { instanceId: 'i1', commandId: 'c-u', unmanagedAt: later },
        },
        { type: 'ShareDeleted', data: { shareId: 's1', deletedAt: later } },
      ]);
  });

  it('leaves the share unmanage_error when the driver refuses to let it go', () => {
    const failed: ShareEvent = {
      type: 'ShareUnmanageFailed',
      data: { instanceId: 'i1', commandId: 'c-u', message: 'no', failedAt: later },
    };
    const history = [...managedShare, unmanageRequested, claimed('unmanage_share', 'c-u')];
    spec
      .given(history)
      .when({
        type: 'FailShareUnmanage',
        instanceId: 'i1',
        commandId: 'c-u',
        message: 'no',
        now: later,
      })
      .then([failed]);
    expect(statusAfter([...history, failed])).toBe('unmanage_error');
  });

  it('refuses to unmanage a share in a transitional state or with snapshots (403)', () => {
    spec
      .given([manageRequested])
      .when({ type: 'UnmanageShare', now: later })
      .thenThrows('forbidden', /transitional state.*'manage_starting'/);
    spec
      .given([
        ...managedShare,
        {
          type: 'SnapshotRequested',
          data: {
            snapshotId: 'snap1',
            projectId: 'p1',
            userId: 'u1',
            name: null,
            description: null,
            size: 3,
            instances: [{ id: 'si1', shareInstanceId: 'i1' }],
            createdAt: later,
          },
        },
      ])
      .when({ type: 'UnmanageShare', now: later })
      .thenThrows('forbidden', /'1' dependent snapshot\(s\)/);
  });
});
