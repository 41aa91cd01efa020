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
} from './test-support/share-history.js';

const spec = deciderSpec(shareDecider);
const MOUNTABLE = { mount_snapshot_support: 'True' };
const ref = { snapshotId: 'snap1', snapshotInstanceId: snapshotInstanceIdOf('snap1', 'i1') };
const instances = [{ id: ref.snapshotInstanceId, shareInstanceId: 'i1' }];

const snapshotTaken: ShareEvent[] = [
  {
    type: 'SnapshotRequested',
    data: {
      snapshotId: 'snap1',
      projectId: 'p1',
      userId: 'u1',
      name: null,
      description: null,
      size: 1,
      instances,
      createdAt: now,
    },
  },
  claimed('create_snapshot', 'c-snap', ref),
  {
    type: 'SnapshotInstanceCreated',
    data: {
      ...ref,
      commandId: 'c-snap',
      status: 'available',
      progress: '100%',
      providerLocation: 'copy:/pool/snapshots/x',
      exportLocations: [{ id: 'el1', path: 'h:/snapshot-x', preferred: true, isAdminOnly: false }],
      createdAt: now,
    },
  },
];
const mountable = [...availableShare(MOUNTABLE), ...snapshotTaken];
const allow = (
  accessTo = '10.0.0.0/24',
): Extract<ShareCommand, { type: 'AllowSnapshotAccess' }> => ({
  type: 'AllowSnapshotAccess',
  snapshotId: 'snap1',
  accessId: 'a1',
  accessType: 'ip',
  accessTo,
  ipv6: false,
  now: later,
});
const allowed: ShareEvent = {
  type: 'SnapshotAccessAllowed',
  data: {
    snapshotId: 'snap1',
    accessId: 'a1',
    accessType: 'ip',
    accessTo: '10.0.0.0/24',
    snapshotInstances: instances,
    createdAt: later,
  },
};
const applying = [...mountable, allowed, claimed('update_snapshot_access', 'c-a', ref)];
const applied: ShareEvent = {
  type: 'SnapshotAccessUpdated',
  data: { ...ref, commandId: 'c-a', applied: ['a1'], denied: [], updatedAt: later },
};
const rulesAfter = (events: ShareEvent[]) => activeShareAfter(events).snapshots[0]?.accessRules;

describe('share decider: mountable snapshots (2.32), read-only access rules', () => {
  it('keeps the export locations the driver reported for a share whose type mounts snapshots', () => {
    expect(activeShareAfter(mountable).snapshots[0]?.instances[0]?.exportLocations).toEqual([
      { id: 'el1', path: 'h:/snapshot-x', preferred: true, isAdminOnly: false },
    ]);
    spec
      .given([
        ...availableShare(),
        snapshotTaken[0] as ShareEvent,
        claimed('create_snapshot', 'c-snap', ref),
      ])
      .when({
        type: 'CompleteSnapshotInstanceCreation',
        ...ref,
        commandId: 'c-snap',
        status: 'available',
        progress: '100%',
        providerLocation: null,
        exportLocations: [{ id: 'el1', path: 'h:/x', preferred: true, isAdminOnly: false }],
        now,
      })
      .then([
        {
          type: 'SnapshotInstanceCreated',
          data: {
            ...ref,
            commandId: 'c-snap',
            status: 'available',
            progress: '100%',
            providerLocation: null,
            createdAt: now,
          },
        },
      ]);
  });

  it('adds a rule queued_to_apply on every instance of the snapshot', () => {
    spec.given(mountable).when(allow()).then([allowed]);
    expect(rulesAfter([...mountable, allowed])).toEqual([
      expect.objectContaining({ id: 'a1', state: 'queued_to_apply' }),
    ]);
  });

  it("refuses a snapshot of a share whose type does not mount snapshots (400, Manila's words)", () =>
    spec
      .given([...availableShare(), ...snapshotTaken])
      .when(allow())
      .thenThrows(
        'invalid',
        /Cannot control access to the snapshot snap1 since the parent share s1 does not support mounting its snapshots/,
      ));

  it('refuses a bad address, and a grantee the snapshot already has (400)', () => {
    spec.given(mountable).when(allow('not-an-ip')).thenThrows('invalid');
    spec
      .given([...applying, applied])
      .when({ ...allow('10.0.0.0/24'), accessId: 'a2' })
      .thenThrows('invalid', /Share snapshot access ip:10.0.0.0\/24 exists/);
  });

  it('refuses a rule while the snapshot is not available (400)', () =>
    spec
      .given([...availableShare(MOUNTABLE), snapshotTaken[0] as ShareEvent])
      .when(allow())
      .thenThrows('invalid', /New access rules cannot be applied while the snapshot/));

  it('makes the queued rule active once the node enforced it', () => {
    spec
      .given(applying)
      .when({ type: 'CompleteSnapshotAccessUpdate', ...ref, commandId: 'c-a', now: later })
      .then([applied]);
    expect(rulesAfter([...applying, applied])).toEqual([
      expect.objectContaining({ id: 'a1', state: 'active' }),
    ]);
  });

  it('puts the queued rule in error when the node could not enforce it', () => {
    const failed: ShareEvent = {
      type: 'SnapshotAccessUpdateFailed',
      data: { ...ref, commandId: 'c-a', failed: ['a1'], message: 'no', failedAt: later },
    };
    spec
      .given(applying)
      .when({
        type: 'FailSnapshotAccessUpdate',
        ...ref,
        commandId: 'c-a',
        message: 'no',
        now: later,
      })
      .then([failed]);
    expect(rulesAfter([...applying, failed])).toEqual([
      expect.objectContaining({ id: 'a1', state: 'error' }),
    ]);
  });

  it('denies a rule (queued_to_deny), which is gone once the node removed it; an unknown rule is a 400', () => {
    const denied: ShareEvent = {
      type: 'SnapshotAccessDenied',
      data: {
        snapshotId: 'snap1',
        accessId: 'a1',
        snapshotInstances: instances,
        requestedAt: later,
      },
    };
    spec
      .given([...applying, applied])
      .when({ type: 'DenySnapshotAccess', snapshotId: 'snap1', accessId: 'a1', now: later })
      .then([denied]);
    spec
      .given([...applying, applied])
      .when({ type: 'DenySnapshotAccess', snapshotId: 'snap1', accessId: 'other', now: later })
      .thenThrows('invalid', /not associated with given snapshot/);
    const removing = [...applying, applied, denied, claimed('update_snapshot_access', 'c-d', ref)];
    const removed: ShareEvent = {
      type: 'SnapshotAccessUpdated',
      data: { ...ref, commandId: 'c-d', applied: [], denied: ['a1'], updatedAt: later },
    };
    spec
      .given(removing)
      .when({ type: 'CompleteSnapshotAccessUpdate', ...ref, commandId: 'c-d', now: later })
      .then([removed]);
    expect(rulesAfter([...removing, removed])).toEqual([]);
  });

  it('lets the node claim an access update only while a rule is queued', () => {
    const claim: ShareCommand = {
      type: 'StartDriverOperation',
      instanceId: 'i1',
      operation: 'update_snapshot_access',
      commandId: 'c-again',
      host: 'node1@b1#p1',
      ...ref,
      now: later,
    };
    spec
      .given([...applying, applied])
      .when(claim)
      .then([]);
  });
});
