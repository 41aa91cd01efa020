import { deciderSpec } from '../test-support/decider-spec.js';
import { snapshotAggregateStatus, snapshotInstanceIdOf } from './share-snapshot.state.js';
import { shareDecider } from './share.decide.js';
import { snapshotsOf, type ShareState } from './share.state.js';
import type { ShareEvent } from './share.events.js';
import {
  activeShareAfter,
  availableShare,
  claimed,
  later,
  now,
} from './test-support/share-history.js';

const spec = deciderSpec(shareDecider);
const SI = snapshotInstanceIdOf('snap1', 'i1');
const ref = { snapshotId: 'snap1', snapshotInstanceId: SI };

const requested: ShareEvent = {
  type: 'SnapshotRequested',
  data: {
    snapshotId: 'snap1',
    projectId: 'p1',
    userId: 'u1',
    name: 'first',
    description: null,
    size: 2,
    instances: [{ id: SI, shareInstanceId: 'i1' }],
    createdAt: later,
  },
};
const snapshotCreated: ShareEvent = {
  type: 'SnapshotInstanceCreated',
  data: {
    ...ref,
    commandId: 'c-snap',
    status: 'available',
    progress: '100%',
    providerLocation: 'sim:/snap',
    createdAt: later,
  },
};
const withSnapshot = [
  ...availableShare(),
  requested,
  claimed('create_snapshot', 'c-snap', ref),
  snapshotCreated,
];
const deletionRequested = (force: boolean): ShareEvent => ({
  type: 'SnapshotDeletionRequested',
  data: { snapshotId: 'snap1', snapshotInstanceIds: [SI], force, requestedAt: later },
});
const request = {
  type: 'RequestSnapshot' as const,
  snapshotId: 'snap1',
  projectId: 'p1',
  userId: 'u1',
  name: 'first',
  description: null,
  now: later,
};

describe('share decider: snapshots', () => {
  describe('RequestSnapshot', () => {
    it('records one creating snapshot instance per share instance', () =>
      spec.given(availableShare()).when(request).then([requested]));
    it('refuses a share type without snapshot_support', () =>
      spec
        .given(availableShare({ snapshot_support: 'False' }))
        .when(request)
        .thenThrows('invalid', /does not support/));
    it('refuses a share that is not available', () =>
      spec
        .given(availableShare().slice(0, 2))
        .when(request)
        .thenThrows('invalid', /must be available/));
    it('refuses an id taken already', () =>
      spec
        .given([...availableShare(), requested])
        .when(request)
        .thenThrows('conflict'));
  });

  describe('the share node', () => {
    it('claims the creation of a creating snapshot instance', () =>
      spec
        .given([...availableShare(), requested])
        .when({
          type: 'StartDriverOperation',
          instanceId: 'i1',
          operation: 'create_snapshot',
          commandId: 'c-snap',
          host: 'node1@b1#p1',
          ...ref,
          now,
        })
        .then([claimed('create_snapshot', 'c-snap', ref)]));
    it('does not claim a snapshot instance that is not creating', () =>
      spec
        .given(withSnapshot)
        .when({
          type: 'StartDriverOperation',
          instanceId: 'i1',
          operation: 'create_snapshot',
          commandId: 'c-again',
          host: 'node1@b1#p1',
          ...ref,
          now,
        })
        .thenNothing());
    it('records the created instance, which makes the snapshot available', () => {
      spec
        .given([...availableShare(), requested, claimed('create_snapshot', 'c-snap', ref)])
        .when({
          type: 'CompleteSnapshotInstanceCreation',
          ...ref,
          commandId: 'c-snap',
          status: 'available',
          progress: '100%',
          providerLocation: 'sim:/snap',
          now: later,
        })
        .then([snapshotCreated]);
      const state = activeShareAfter(withSnapshot);
      const snapshot = state.snapshots[0];
      expect(snapshot && snapshotAggregateStatus(snapshot, () => null)).toBe('available');
      expect(state.instances[0]?.pendingOperation).toBeNull();
    });
    it('ignores an outcome whose claim is not open', () =>
      spec
        .given(withSnapshot)
        .when({
          type: 'FailSnapshotInstanceCreation',
          ...ref,
          commandId: 'c-snap',
          message: 'late',
          now: later,
        })
        .thenNothing());
    it('records a failed creation as error', () => {
      const failed: ShareEvent = {
        type: 'SnapshotInstanceCreationFailed',
        data: { ...ref, commandId: 'c-snap', message: 'no space', failedAt: later },
      };
      spec
        .given([...availableShare(), requested, claimed('create_snapshot', 'c-snap', ref)])
        .when({
          type: 'FailSnapshotInstanceCreation',
          ...ref,
          commandId: 'c-snap',
          message: 'no space',
          now: later,
        })
        .then([failed]);
      const state = activeShareAfter([
        ...availableShare(),
        requested,
        claimed('create_snapshot', 'c-snap', ref),
        failed,
      ]);
      expect(state.snapshots[0]?.instances[0]?.status).toBe('error');
    });
  });

  describe('UpdateSnapshot and ResetSnapshotStatus', () => {
    it('renames', () =>
      spec
        .given(withSnapshot)
        .when({ type: 'UpdateSnapshot', snapshotId: 'snap1', name: 'renamed', now: later })
        .then([
          {
            type: 'SnapshotUpdated',
            data: { snapshotId: 'snap1', name: 'renamed', updatedAt: later },
          },
        ]));
    it('is a 404 for an unknown snapshot', () =>
      spec
        .given(withSnapshot)
        .when({ type: 'UpdateSnapshot', snapshotId: 'nope', name: 'x', now: later })
        .thenThrows('not_found'));
    it('resets the preferred instance', () =>
      spec
        .given(withSnapshot)
        .when({ type: 'ResetSnapshotStatus', snapshotId: 'snap1', status: 'error', now: later })
        .then([
          {
            type: 'SnapshotStatusReset',
            data: { snapshotId: 'snap1', snapshotInstanceId: SI, status: 'error', resetAt: later },
          },
        ]));
    it('refuses a status outside the allowed set', () =>
      spec
        .given(withSnapshot)
        .when({
          type: 'ResetSnapshotStatus',
          snapshotId: 'snap1',
          status: 'bogus' as 'error',
          now: later,
        })
        .thenThrows(
          'invalid',
          /^Invalid state\. Valid states: creating, available, deleting, error, error_deleting, migrating, migrating_to, server_migrating\.$/,
        ));
  });

  describe('DeleteSnapshot', () => {
    it('sets every instance deleting', () =>
      spec
        .given(withSnapshot)
        .when({ type: 'DeleteSnapshot', snapshotId: 'snap1', force: false, now: later })
        .then([deletionRequested(false)]));
    it('refuses a creating snapshot unless forced', () => {
      spec
        .given([...availableShare(), requested])
        .when({ type: 'DeleteSnapshot', snapshotId: 'snap1', force: false, now: later })
        .thenThrows('invalid', /must be one of available, error/);
      spec
        .given([...availableShare(), requested])
        .when({ type: 'DeleteSnapshot', snapshotId: 'snap1', force: true, now: later })
        .then([deletionRequested(true)]);
    });
    it('removes the instance and then the snapshot when the driver deleted it', () =>
      spec
        .given([
          ...withSnapshot,
          deletionRequested(false),
          claimed('delete_snapshot', 'c-del', ref),
        ])
        .when({ type: 'CompleteSnapshotInstanceDeletion', ...ref, commandId: 'c-del', now: later })
        .then([
          {
            type: 'SnapshotInstanceDeleted',
            data: { ...ref, commandId: 'c-del', deletedAt: later },
          },
          {
            type: 'SnapshotDeleted',
            data: { snapshotId: 'snap1', projectId: 'p1', deletedAt: later },
          },
        ]));
    it('records error_deleting when the driver fails', () =>
      spec
        .given([
          ...withSnapshot,
          deletionRequested(false),
          claimed('delete_snapshot', 'c-del', ref),
        ])
        .when({
          type: 'FailSnapshotInstanceDeletion',
          ...ref,
          commandId: 'c-del',
          message: 'busy',
          now: later,
        })
        .then([
          {
            type: 'SnapshotInstanceDeletionFailed',
            data: { ...ref, commandId: 'c-del', message: 'busy', failedAt: later },
          },
        ]));
    it('removes a force-deleted snapshot even when the driver fails', () =>
      spec
        .given([...withSnapshot, deletionRequested(true), claimed('delete_snapshot', 'c-del', ref)])
        .when({
          type: 'FailSnapshotInstanceDeletion',
          ...ref,
          commandId: 'c-del',
          message: 'busy',
          now: later,
        })
        .then([
          {
            type: 'SnapshotInstanceDeleted',
            data: { ...ref, commandId: 'c-del', deletedAt: later },
          },
          {
            type: 'SnapshotDeleted',
            data: { snapshotId: 'snap1', projectId: 'p1', deletedAt: later },
          },
        ]));
  });

  describe('the share with snapshots', () => {
    it('cannot be deleted (403)', () =>
      spec
        .given(withSnapshot)
        .when({ type: 'DeleteShare', force: false, now: later })
        .thenThrows('forbidden', /snapshots/));
    it('cannot be force-deleted (400)', () =>
      spec
        .given(withSnapshot)
        .when({ type: 'DeleteShare', force: true, now: later })
        .thenThrows('invalid', /snapshots/));
  });

  it('evolves a share state stored before snapshots existed (read models of older versions)', () => {
    const {
      snapshots: _s,
      accessRules: _a,
      pendingResize: _p,
      ...stored
    } = activeShareAfter(availableShare());
    const state = shareDecider.evolve(stored as ShareState, requested);
    expect(snapshotsOf(state).map((x) => x.id)).toEqual(['snap1']);
  });

  describe('aggregate status', () => {
    it('counts only instances on active or in_sync replicas, worst first', () => {
      const snapshot = {
        ...activeShareAfter(withSnapshot).snapshots[0]!,
        instances: [
          {
            id: 'a',
            shareInstanceId: 'r1',
            status: 'available' as const,
            progress: '100%',
            providerLocation: null,
            createdAt: now,
            updatedAt: now,
          },
          {
            id: 'b',
            shareInstanceId: 'r2',
            status: 'creating' as const,
            progress: '0%',
            providerLocation: null,
            createdAt: now,
            updatedAt: now,
          },
          {
            id: 'c',
            shareInstanceId: 'r3',
            status: 'error' as const,
            progress: '0%',
            providerLocation: null,
            createdAt: now,
            updatedAt: now,
          },
        ],
      };
      const replicas: Record<string, 'active' | 'in_sync' | 'out_of_sync'> = {
        r1: 'active',
        r2: 'in_sync',
        r3: 'out_of_sync',
      };
      expect(snapshotAggregateStatus(snapshot, (id) => replicas[id])).toBe('creating');
      replicas.r2 = 'out_of_sync';
      expect(snapshotAggregateStatus(snapshot, (id) => replicas[id])).toBe('available');
    });
  });

  describe('metadata (2.73)', () => {
    const metadataChanged = (set: Record<string, string>, unset: string[] = []): ShareEvent => ({
      type: 'SnapshotMetadataChanged',
      data: { snapshotId: 'snap1', set, unset, updatedAt: later },
    });
    const change = (set: Record<string, string>, unset: string[] = []) => ({
      type: 'ChangeSnapshotMetadata' as const,
      snapshotId: 'snap1',
      set,
      unset,
      now: later,
    });

    it('records the metadata a snapshot is requested with', () =>
      spec
        .given(availableShare())
        .when({ ...request, metadata: { tier: 'gold' } })
        .then([requested, metadataChanged({ tier: 'gold' })]));
    it('refuses an empty value, writing nothing', () =>
      spec
        .given(availableShare())
        .when({ ...request, metadata: { tier: '' } })
        .thenThrows('invalid', /^Metadata property value is blank\.$/));
    it('sets new and changed keys and unsets present ones', () =>
      spec
        .given([...withSnapshot, metadataChanged({ tier: 'gold', keep: 'x' })])
        .when(change({ tier: 'silver', keep: 'x' }, ['keep', 'absent']))
        .then([metadataChanged({ tier: 'silver' }, [])]));
    it('unsets a key that is present', () =>
      spec
        .given([...withSnapshot, metadataChanged({ tier: 'gold' })])
        .when(change({}, ['tier']))
        .then([metadataChanged({}, ['tier'])]));
    it('records nothing for a change that changes nothing', () =>
      spec
        .given([...withSnapshot, metadataChanged({ tier: 'gold' })])
        .when(change({ tier: 'gold' }, ['absent']))
        .thenNothing());
    it('refuses an unknown snapshot', () =>
      spec
        .given(availableShare())
        .when(change({ a: 'b' }))
        .thenThrows('not_found'));
    it('folds into the snapshot state', () => {
      const state: ShareState = activeShareAfter([
        ...withSnapshot,
        metadataChanged({ tier: 'gold', zone: 'a' }),
        metadataChanged({}, ['zone']),
      ]);
      expect(state.snapshots[0]?.metadata).toEqual({ tier: 'gold' });
    });
  });
});
