import { fold } from '../shared/decider.js';
import { deciderSpec } from '../test-support/decider-spec.js';
import { snapshotInstanceIdOf } from './share-snapshot.state.js';
import type { ShareCommand } from './share.commands.js';
import { shareDecider } from './share.decide.js';
import type { ShareEvent } from './share.events.js';
import type { TaskState } from './share-migration.types.js';
import {
  availableShare,
  later,
  now,
  ruleAllowed,
  snapshotRequest,
} from './test-support/share-history.js';
import { snapshotTaken } from './test-support/replica-history.js';

const spec = deciderSpec(shareDecider);
/** Every capability the refused actions need, so only the task state can refuse them. */
const CAPABLE = { revert_to_snapshot_support: 'True', replication_type: 'readable' };

const taskState = (state: TaskState): ShareEvent => ({
  type: 'ShareTaskStateReset',
  data: { taskState: state, resetAt: now },
});
const snapshotInstance = {
  snapshotId: 'snap1',
  snapshotInstanceId: snapshotInstanceIdOf('snap1', 'i1'),
};

/** Each action Manila's share API checks with `_check_is_share_busy`, and its answer. */
const REFUSED: { action: string; command: ShareCommand; kind: 'invalid' | 'forbidden' }[] = [
  {
    action: 'extend',
    command: { type: 'ResizeShare', direction: 'extend', newSize: 3, now: later },
    kind: 'invalid',
  },
  {
    action: 'shrink',
    command: { type: 'ResizeShare', direction: 'shrink', newSize: 1, now: later },
    kind: 'invalid',
  },
  { action: 'snapshot', command: snapshotRequest(later), kind: 'invalid' },
  { action: 'delete', command: { type: 'DeleteShare', force: false, now: later }, kind: 'invalid' },
  {
    action: 'force delete',
    command: { type: 'DeleteShare', force: true, now: later },
    kind: 'invalid',
  },
  {
    action: 'soft delete',
    command: { type: 'SoftDeleteShare', scheduledToBeDeletedAt: later, now: later },
    kind: 'forbidden',
  },
  { action: 'unmanage', command: { type: 'UnmanageShare', now: later }, kind: 'invalid' },
  {
    action: 'replica',
    command: { type: 'RequestReplica', replicaId: 'r1', availabilityZone: null, now: later },
    kind: 'invalid',
  },
  {
    action: 'allow access',
    command: {
      type: 'AllowAccess',
      accessId: 'a2',
      accessType: 'ip',
      accessTo: '198.51.100.7',
      accessLevel: 'ro',
      metadata: {},
      ipv6: false,
      now: later,
    },
    kind: 'invalid',
  },
  {
    action: 'deny access',
    command: { type: 'DenyAccess', accessId: 'a1', now: later },
    kind: 'invalid',
  },
];

/*
 * A share whose instance is available but whose task_state is busy (an admin reset its status
 * during a migration, or set the task state): the task state alone refuses every change Manila
 * refuses on a busy share, with ShareBusyException's message.
 */
describe('share decider: a share busy with a migration task', () => {
  const available = [...availableShare(CAPABLE), ruleAllowed];

  describe.each(REFUSED)('$action', ({ command, kind }) => {
    it.each<TaskState>([
      'migration_in_progress',
      'data_copying_completed',
      'migration_driver_phase1_done',
    ])('is refused while the task state is %s', (busy) =>
      spec
        .given([...available, taskState(busy)])
        .when(command)
        .thenThrows(
          kind,
          new RegExp(
            `^Share is busy with an active task: Share s1 is busy as part of an active task: ${busy}\\.$`,
          ),
        ),
    );

    it('is decided once the migration is over (migration_success)', () => {
      const events = shareDecider.decide(
        command,
        fold(shareDecider, [...available, taskState('migration_success')]),
      );
      expect(events.length).toBeGreaterThan(0);
    });
  });

  it("refuses a revert with Manila's 409 while a task is active, and takes it after", () => {
    const withSnapshot = [...availableShare(CAPABLE), ...snapshotTaken('snap1', now)];
    const revert: ShareCommand = { type: 'RevertShareToSnapshot', snapshotId: 'snap1', now: later };
    spec
      .given([...withSnapshot, taskState('data_copying_in_progress')])
      .when(revert)
      .thenThrows('conflict', /^Share s1 may not be reverted while it has an active task\.$/);
    spec
      .given([...withSnapshot, taskState('migration_cancelled')])
      .when(revert)
      .then([
        {
          type: 'ShareRevertRequested',
          data: { ...snapshotInstance, instanceId: 'i1', requestedAt: later },
        },
      ]);
  });
});
