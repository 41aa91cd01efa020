import { deciderSpec } from '../test-support/decider-spec.js';
import { snapshotAggregateStatus, snapshotInstanceIdOf } from './share-snapshot.state.js';
import { shareDecider } from './share.decide.js';
import type { ShareEvent } from './share.events.js';
import {
  activeShareAfter,
  availableShare,
  claimed,
  later,
  now,
} from './test-support/share-history.js';
import { snapshotTaken } from './test-support/replica-history.js';

const spec = deciderSpec(shareDecider);
const REVERTIBLE = { revert_to_snapshot_support: 'True' };
const instanceOf = (snapshotId: string) => snapshotInstanceIdOf(snapshotId, 'i1');
const refOf = (snapshotId: string) => ({ snapshotId, snapshotInstanceId: instanceOf(snapshotId) });

const withSnapshot = [...availableShare(REVERTIBLE), ...snapshotTaken('snap1', now)];
const revert = (snapshotId = 'snap1') => ({
  type: 'RevertShareToSnapshot' as const,
  snapshotId,
  now: later,
});
const revertRequested: ShareEvent = {
  type: 'ShareRevertRequested',
  data: { ...refOf('snap1'), instanceId: 'i1', requestedAt: later },
};
const reverting = [...withSnapshot, revertRequested];
const revertClaimed = claimed('revert_to_snapshot', 'c-revert', refOf('snap1'));

describe('share decider: revert to snapshot (2.27)', () => {
  describe('RevertShareToSnapshot', () => {
    it('reverts an available share to its latest available snapshot', () =>
      spec.given(withSnapshot).when(revert()).then([revertRequested]));

    it('makes the share reverting and the snapshot restoring', () => {
      const state = activeShareAfter(reverting);
      expect(state.instances[0]?.status).toBe('reverting');
      const snapshot = state.snapshots[0];
      expect(snapshot && snapshotAggregateStatus(snapshot, () => null)).toBe('restoring');
    });

    it('refuses a share whose type lacks revert_to_snapshot_support (400)', () =>
      spec
        .given([...availableShare(), ...snapshotTaken('snap1', now)])
        .when(revert())
        .thenThrows('invalid', /does not have that capability/));

    it('refuses a snapshot of another share (400)', () =>
      spec
        .given(withSnapshot)
        .when(revert('other'))
        .thenThrows('invalid', /is not associated with share s1/));

    it('refuses a share that is not available (409)', () =>
      spec
        .given(reverting)
        .when(revert())
        .thenThrows('conflict', /'reverting' state, but it must be in 'available'/));

    it('refuses a snapshot that is not available (409)', () =>
      spec
        .given([
          ...withSnapshot,
          {
            type: 'SnapshotStatusReset',
            data: {
              snapshotId: 'snap1',
              snapshotInstanceId: instanceOf('snap1'),
              status: 'error',
              resetAt: later,
            },
          },
        ])
        .when(revert())
        .thenThrows('conflict', /Snapshot snap1 is in 'error' state/));

    it('refuses any snapshot but the latest (409), naming the latest', () =>
      spec
        .given([...withSnapshot, ...snapshotTaken('snap2', later)])
        .when(revert('snap1'))
        .thenThrows('conflict', /not the most recent snapshot.*latest snapshot is snap2/));

    it('refuses while access rules are being applied (409)', () =>
      spec
        .given([
          ...withSnapshot,
          {
            type: 'ShareAccessAllowed',
            data: {
              accessId: 'a1',
              accessType: 'ip',
              accessTo: '10.0.0.1',
              accessLevel: 'rw',
              metadata: {},
              instanceIds: ['i1'],
              createdAt: later,
            },
          },
        ])
        .when(revert())
        .thenThrows('conflict', /access rules that are not active/));
  });

  describe('the node claims and settles the revert', () => {
    it('claims only while the instance is reverting', () => {
      const claim = {
        type: 'StartDriverOperation' as const,
        instanceId: 'i1',
        operation: 'revert_to_snapshot' as const,
        commandId: 'c-revert',
        host: 'node1@b1#p1',
        ...refOf('snap1'),
        now,
      };
      spec.given(withSnapshot).when(claim).thenNothing();
      spec.given(reverting).when(claim).then([revertClaimed]);
    });

    it("gives the share the snapshot's size and both back to available", () => {
      const reverted: ShareEvent = {
        type: 'ShareReverted',
        data: {
          ...refOf('snap1'),
          instanceId: 'i1',
          commandId: 'c-revert',
          size: 2,
          revertedAt: later,
        },
      };
      spec
        .given([...reverting, revertClaimed])
        .when({ type: 'CompleteShareRevert', instanceId: 'i1', commandId: 'c-revert', now: later })
        .then([reverted]);
      const state = activeShareAfter([...reverting, revertClaimed, reverted]);
      expect(state.instances[0]).toMatchObject({ status: 'available', pendingOperation: null });
      expect(state.snapshots[0]?.instances[0]?.status).toBe('available');
      expect(state.size).toBe(2);
    });

    it('leaves the share reverting_error and the snapshot available when the driver fails', () => {
      const failed: ShareEvent = {
        type: 'ShareRevertFailed',
        data: {
          ...refOf('snap1'),
          instanceId: 'i1',
          commandId: 'c-revert',
          message: 'no',
          failedAt: later,
        },
      };
      spec
        .given([...reverting, revertClaimed])
        .when({
          type: 'FailShareRevert',
          instanceId: 'i1',
          commandId: 'c-revert',
          message: 'no',
          now: later,
        })
        .then([failed]);
      const state = activeShareAfter([...reverting, revertClaimed, failed]);
      expect(state.instances[0]?.status).toBe('reverting_error');
      expect(state.snapshots[0]?.instances[0]?.status).toBe('available');
    });

    it('settles nothing for a command that holds no open revert claim', () =>
      spec
        .given(reverting)
        .when({ type: 'CompleteShareRevert', instanceId: 'i1', commandId: 'c-revert', now: later })
        .thenNothing());
  });
});
