import { deciderSpec } from '../test-support/decider-spec.js';
import { shareDecider } from './share.decide.js';
import type { ShareCommand } from './share.commands.js';
import type { ShareEvent } from './share.events.js';
import type { MigrationOptions } from './share-migration.types.js';
import {
  copying,
  DEST_EXPORT,
  DEST_HOST,
  HOST_ASSISTED,
  migrationStarted,
  migrationStartClaim,
  phase1Done,
} from './test-support/migration-history.js';
import {
  activeShareAfter,
  availableShare,
  HOST,
  later,
  operationStarted,
} from './test-support/share-history.js';

const spec = deciderSpec(shareDecider);

const start = (
  options: MigrationOptions = HOST_ASSISTED,
  host: string = DEST_HOST,
): ShareCommand => ({
  type: 'StartShareMigration',
  destinationInstanceId: 'i2',
  host,
  availabilityZone: 'az-2',
  options,
  newShareType: null,
  hintsOverride: null,
  now: '2026-11-22T10:00:00.000Z',
});

const DRIVER_OPTIONS: MigrationOptions = {
  forceHostAssistedMigration: false,
  preserveMetadata: true,
  writable: false,
  nondisruptive: false,
  preserveSnapshots: false,
};

const snapshotRequested: ShareEvent = {
  type: 'SnapshotRequested',
  data: {
    snapshotId: 'sn1',
    projectId: 'p1',
    userId: 'u1',
    name: null,
    description: null,
    size: 2,
    instances: [{ id: 'sni1', shareInstanceId: 'i1' }],
    createdAt: later,
  },
};

const poll = (
  status: 'copying' | 'done' | 'error',
  progress: number,
  message: string | null = null,
): ShareCommand => ({
  type: 'RecordShareMigrationProgress',
  pollId: 'poll-1',
  status,
  progress,
  exportLocations: status === 'done' ? [DEST_EXPORT] : [],
  message,
  now: later,
});

const sourceDeleted: ShareEvent = {
  type: 'ShareInstanceDeleted',
  data: { instanceId: 'i1', commandId: 'c-del', deletedAt: later },
};

describe('share decider: migration_start', () => {
  it('moves the source to migrating and adds a destination instance migrating_to', () => {
    spec.given(availableShare()).when(start()).then([migrationStarted()]);
    const share = activeShareAfter([...availableShare(), migrationStarted()]);
    expect(share.taskState).toBe('migration_starting');
    expect(share.instances.map((i) => [i.id, i.status, i.host])).toEqual([
      ['i1', 'migrating', HOST],
      ['i2', 'migrating_to', DEST_HOST],
    ]);
  });
  it('refuses force_host_assisted_migration with a driver-assisted flag set', () =>
    spec
      .given(availableShare())
      .when(start({ ...HOST_ASSISTED, writable: true }))
      .thenThrows('invalid', /Invalid parameter combination/));
  it('refuses a share with replicas (409)', () =>
    spec
      .given([
        ...availableShare({ replication_type: 'readable' }),
        {
          type: 'ReplicaRequested',
          data: {
            replicaId: 'r2',
            availabilityZone: null,
            snapshotInstances: [],
            quotaHolderId: 'q2',
            requestedAt: later,
          },
        },
      ])
      .when(start())
      .thenThrows('conflict', /has replicas/));
  it('refuses a share that is not available', () =>
    spec
      .given(availableShare().slice(0, 2))
      .when(start())
      .thenThrows('invalid', /status must be available, but current status is: creating/));
  it('refuses a busy share (a migration under way)', () =>
    spec
      .given([
        ...availableShare(),
        migrationStarted(),
        {
          type: 'ShareTaskStateReset',
          data: { taskState: 'data_copying_completed', resetAt: later },
        },
        {
          type: 'ShareStatusReset',
          data: { instanceId: 'i1', status: 'available', resetAt: later },
        },
      ])
      .when(start())
      .thenThrows('invalid', /busy as part of an active task: data_copying_completed/));
  it('refuses a host-assisted migration of a share with snapshots (409)', () =>
    spec
      .given([...availableShare(), snapshotRequested])
      .when(start())
      .thenThrows('conflict', /must not have snapshots/));
  it("does nothing but set migration_success when host and type are the share's own", () =>
    spec
      .given(availableShare())
      .when(start(DRIVER_OPTIONS, HOST))
      .then([{ type: 'ShareMigrationSkipped', data: { skippedAt: '2026-11-22T10:00:00.000Z' } }]));
});

describe('share decider: migration steps', () => {
  it('accepts the host once, then the node chooses the method once', () => {
    const started = [...availableShare(), migrationStarted()];
    spec
      .given(started)
      .when({ type: 'AcceptShareMigrationHost', now: later })
      .then([{ type: 'ShareMigrationHostAccepted', data: { acceptedAt: later } }]);
    const accepted = [...started, copying()[1]!];
    expect(activeShareAfter(accepted).taskState).toBe('migration_in_progress');
    spec.given(accepted).when({ type: 'AcceptShareMigrationHost', now: later }).thenNothing();
    spec
      .given(accepted)
      .when({
        type: 'ChooseShareMigrationMethod',
        method: 'host',
        castRulesToReadonly: false,
        now: later,
      })
      .then([{ type: 'ShareMigrationMethodSelected', data: { method: 'host', chosenAt: later } }]);
    const chosen = [...accepted, copying()[2]!];
    expect(activeShareAfter(chosen).taskState).toBe('data_copying_starting');
    spec
      .given(chosen)
      .when({
        type: 'ChooseShareMigrationMethod',
        method: 'driver',
        castRulesToReadonly: false,
        now: later,
      })
      .thenNothing();
  });
  it('lets the destination node claim migration_start only once the method is chosen', () => {
    const claim = migrationStartClaim;
    spec
      .given([...availableShare(), ...copying().slice(0, 2)])
      .when(claim)
      .thenNothing();
    spec
      .given([...availableShare(), ...copying().slice(0, 3)])
      .when(claim)
      .then([operationStarted('i2', DEST_HOST, 'migration_start', 'c-mig', later)]);
  });
  it('records the copy started (data_copying_in_progress) and the claim over', () => {
    spec
      .given([...availableShare(), ...copying().slice(0, 4)])
      .when({
        type: 'RecordShareMigrationCopy',
        commandId: 'c-mig',
        status: 'copying',
        progress: 0,
        exportLocations: [],
        message: null,
        now: later,
      })
      .then([
        {
          type: 'ShareMigrationCopyStarted',
          data: { commandId: 'c-mig', progress: 0, copyStartedAt: later },
        },
      ]);
    const share = activeShareAfter([...availableShare(), ...copying()]);
    expect(share.taskState).toBe('data_copying_in_progress');
    expect(share.instances.find((i) => i.id === 'i2')?.pendingOperation).toBeNull();
  });
  it('a driver-assisted move done at once reaches migration_driver_phase1_done', () => {
    const history = [...availableShare(), ...copying('driver').slice(0, 4)];
    const events = shareDecider.decide(
      {
        type: 'RecordShareMigrationCopy',
        commandId: 'c-mig',
        status: 'done',
        progress: 100,
        exportLocations: [DEST_EXPORT],
        message: null,
        now: later,
      },
      activeShareAfter(history),
    );
    expect(events.map((e) => e.type)).toEqual([
      'ShareMigrationCopyStarted',
      'ShareMigrationFirstPhaseCompleted',
    ]);
    expect(activeShareAfter([...history, ...events]).taskState).toBe(
      'migration_driver_phase1_done',
    );
  });
  it('records progress that grows, and nothing for the same figure', () => {
    const history = [...availableShare(), ...copying()];
    spec
      .given(history)
      .when(poll('copying', 40))
      .then([{ type: 'ShareMigrationProgressed', data: { progress: 40, progressedAt: later } }]);
    spec
      .given([
        ...history,
        { type: 'ShareMigrationProgressed', data: { progress: 40, progressedAt: later } },
      ])
      .when(poll('copying', 40))
      .thenNothing();
  });
  it('phase 1 done: data_copying_completed, progress 100, the source still migrating', () => {
    spec
      .given([...availableShare(), ...copying()])
      .when(poll('done', 100))
      .then([phase1Done]);
    const share = activeShareAfter([...availableShare(), ...copying(), phase1Done]);
    expect(share.taskState).toBe('data_copying_completed');
    expect(share.migration?.progress).toBe(100);
    expect(share.instances.map((i) => i.status)).toEqual(['migrating', 'migrating_to']);
  });
  it('a failed copy ends in migration_error: source available, destination to delete', () => {
    const history = [...availableShare(), ...copying()];
    spec
      .given(history)
      .when(poll('error', 0, 'Copying the data failed.'))
      .then([
        {
          type: 'ShareMigrationFailed',
          data: {
            destinationInstanceId: 'i2',
            destinationCleanup: true,
            message: 'Copying the data failed.',
            failedAt: later,
          },
        },
      ]);
    const failed = activeShareAfter([
      ...history,
      ...shareDecider.decide(poll('error', 0, 'x'), activeShareAfter(history)),
    ]);
    expect(failed.taskState).toBe('migration_error');
    expect(failed.migration).toBeNull();
    expect(failed.instances.map((i) => [i.id, i.status])).toEqual([
      ['i1', 'available'],
      ['i2', 'deleting'],
    ]);
  });
  it('a refusal by the scheduler drops the destination no driver held', () => {
    const history = [...availableShare(), migrationStarted()];
    const events = shareDecider.decide(
      { type: 'FailShareMigration', message: 'No valid host', now: later },
      activeShareAfter(history),
    );
    const share = activeShareAfter([...history, ...events]);
    expect(share.instances.map((i) => [i.id, i.status])).toEqual([['i1', 'available']]);
    expect(share.taskState).toBe('migration_error');
  });
});

describe('share decider: migration_complete and migration_cancel', () => {
  const done = [...availableShare(), ...copying(), phase1Done];
  it('refuses to complete before the first phase is done', () =>
    spec
      .given([...availableShare(), ...copying()])
      .when({ type: 'CompleteShareMigration', now: later })
      .thenThrows('invalid', /First migration phase of share s1 not completed yet/));
  it('refuses to complete a share that is not migrating', () =>
    spec
      .given(availableShare())
      .when({ type: 'CompleteShareMigration', now: later })
      .thenThrows('invalid', /There is no migration being performed for share s1/));
  it('switches to the destination, retires the source, then succeeds once the source is gone', () => {
    spec
      .given(done)
      .when({ type: 'CompleteShareMigration', now: later })
      .then([
        {
          type: 'ShareMigrationCompletionRequested',
          data: { sourceInstanceId: 'i1', destinationInstanceId: 'i2', requestedAt: later },
        },
      ]);
    const completing = [
      ...done,
      ...shareDecider.decide(
        { type: 'CompleteShareMigration', now: later },
        activeShareAfter(done),
      ),
    ];
    const share = activeShareAfter(completing);
    expect(share.taskState).toBe('migration_completing');
    expect(share.instances.map((i) => [i.id, i.status])).toEqual([
      ['i1', 'deleting'],
      ['i2', 'available'],
    ]);
    expect(share.instances[1]?.exportLocations).toEqual([DEST_EXPORT]);
    spec
      .given(completing)
      .when({ type: 'RecordShareMigrationCompleted', now: later })
      .thenNothing();
    spec
      .given([...completing, sourceDeleted])
      .when({ type: 'RecordShareMigrationCompleted', now: later })
      .then([{ type: 'ShareMigrationCompleted', data: { completedAt: later } }]);
    const success = activeShareAfter([
      ...completing,
      sourceDeleted,
      { type: 'ShareMigrationCompleted', data: { completedAt: later } },
    ]);
    expect(success.taskState).toBe('migration_success');
    expect(success.instances.map((i) => [i.id, i.host])).toEqual([['i2', DEST_HOST]]);
  });
  it('cancels a copy: the destination goes, then the source is available again', () => {
    spec
      .given([...availableShare(), ...copying()])
      .when({ type: 'CancelShareMigration', now: later })
      .then([
        {
          type: 'ShareMigrationCancelRequested',
          data: { destinationInstanceId: 'i2', requestedAt: later },
        },
      ]);
    const cancelling = [
      ...done,
      {
        type: 'ShareMigrationCancelRequested',
        data: { destinationInstanceId: 'i2', requestedAt: later },
      } as ShareEvent,
    ];
    expect(activeShareAfter(cancelling).taskState).toBe('migration_cancel_in_progress');
    const destinationDeleted: ShareEvent = {
      type: 'ShareInstanceDeleted',
      data: { instanceId: 'i2', commandId: 'c-del2', deletedAt: later },
    };
    spec
      .given(cancelling)
      .when({ type: 'RecordShareMigrationCancelled', now: later })
      .thenNothing();
    spec
      .given([...cancelling, destinationDeleted])
      .when({ type: 'RecordShareMigrationCancelled', now: later })
      .then([{ type: 'ShareMigrationCancelled', data: { cancelledAt: later } }]);
    const cancelled = activeShareAfter([
      ...cancelling,
      destinationDeleted,
      { type: 'ShareMigrationCancelled', data: { cancelledAt: later } },
    ]);
    expect(cancelled.taskState).toBe('migration_cancelled');
    expect(cancelled.instances.map((i) => [i.id, i.status, i.host])).toEqual([
      ['i1', 'available', HOST],
    ]);
  });
  it("refuses to cancel before the copy runs, with Manila's message", () =>
    spec
      .given([...availableShare(), migrationStarted()])
      .when({ type: 'CancelShareMigration', now: later })
      .thenThrows('invalid', /cannot be cancelled at this moment/));
});

describe('share decider: reset_task_state', () => {
  it("sets any of Manila's task states, or none", () => {
    spec
      .given(availableShare())
      .when({ type: 'ResetShareTaskState', taskState: 'migration_error', now: later })
      .then([
        { type: 'ShareTaskStateReset', data: { taskState: 'migration_error', resetAt: later } },
      ]);
    spec
      .given(availableShare())
      .when({ type: 'ResetShareTaskState', taskState: null, now: later })
      .then([{ type: 'ShareTaskStateReset', data: { taskState: null, resetAt: later } }]);
  });
  it('refuses a value that is not a task state', () =>
    spec
      .given(availableShare())
      .when({ type: 'ResetShareTaskState', taskState: 'sleeping' as never, now: later })
      .thenThrows('invalid', /Invalid state. Valid states/));
});
