import { assertNever } from '../shared/decider.js';
import { conflict, invalid, invalidState } from '../shared/domain-error.js';
import type { MigrationCommand } from './share-migration.commands.js';
import {
  COPYING_TASK_STATES,
  PHASE1_DONE_TASK_STATES,
  RESETTABLE_TASK_STATES,
  type MigrationState,
} from './share-migration.types.js';
import type { ShareCommandOf } from './share.commands.js';
import type { ShareEvent } from './share.events.js';
import type { ExportLocation } from './share.types.js';
import { preferredInstance, type ActiveShare, type ShareInstanceState } from './share.state.js';
import { instanceAccessRulesStatus } from './share-access.state.js';
import { refuseIfBusy } from './share-busy.js';

type Command<T extends MigrationCommand['type']> = ShareCommandOf<T>;

/** The migration a step belongs to; a step without one is a stale reaction and decides nothing. */
const migrationOf = (state: ActiveShare): MigrationState | null => state.migration ?? null;

/**
 * Manila's share_api.migration_start checks, in its order (the API checked the body, the type,
 * the network and the host before): flags, replicas, status, access rules, busy, snapshots.
 */
export const startShareMigration = (
  command: Command<'StartShareMigration'>,
  state: ActiveShare,
): ShareEvent[] => {
  const { options } = command;
  if (
    options.forceHostAssistedMigration &&
    (options.preserveMetadata ||
      options.writable ||
      options.nondisruptive ||
      options.preserveSnapshots)
  ) {
    throw invalid(
      'Invalid parameter combination. Cannot set parameters "nondisruptive", "writable", "preserve_snapshots" or "preserve_metadata" to True when enabling the "force_host_assisted_migration" option.',
    );
  }
  if (state.instances.filter((i) => i.replicaState !== null).length > 1) {
    throw conflict(
      `Share ${state.id} has replicas. Remove the replicas before attempting to migrate the share.`,
    );
  }
  const source = preferredInstance(state.instances) as ShareInstanceState;
  if (source.status !== 'available') {
    throw invalid(
      `Share instance ${source.id} status must be available, but current status is: ${source.status}.`,
    );
  }
  if (instanceAccessRulesStatus(state.accessRules, source.id) === 'error') {
    throw invalid(
      `Share instance ${source.id} access rules status must not be in error when attempting to start a migration.`,
    );
  }
  refuseIfBusy(state);
  if (options.forceHostAssistedMigration && state.snapshots.length > 0) {
    throw conflict(`Share ${state.id} must not have snapshots when using host-assisted migration.`);
  }
  const sameType =
    command.newShareType === null || command.newShareType.shareType.id === state.shareType?.id;
  if (sameType && command.host === source.host) {
    return [{ type: 'ShareMigrationSkipped', data: { skippedAt: command.now } }];
  }
  return [
    {
      type: 'ShareMigrationStarted',
      data: {
        sourceInstanceId: source.id,
        destinationInstanceId: command.destinationInstanceId,
        host: command.host,
        availabilityZone: command.availabilityZone,
        options,
        newShareType: command.newShareType,
        hintsOverride: command.hintsOverride,
        startedAt: command.now,
      },
    },
  ];
};

const acceptHost = (command: Command<'AcceptShareMigrationHost'>, state: ActiveShare) =>
  migrationOf(state) && state.taskState === 'migration_starting'
    ? [{ type: 'ShareMigrationHostAccepted' as const, data: { acceptedAt: command.now } }]
    : [];

const chooseMethod = (
  command: Command<'ChooseShareMigrationMethod'>,
  state: ActiveShare,
): ShareEvent[] => {
  const migration = migrationOf(state);
  if (migration?.method !== null || state.taskState !== 'migration_in_progress') return [];
  const chosen: ShareEvent = {
    type: 'ShareMigrationMethodSelected',
    data: { method: command.method, chosenAt: command.now },
  };
  if (!command.castRulesToReadonly) return [chosen];
  return [
    chosen,
    {
      type: 'ShareMigrationReadOnlyAccessQueued',
      data: { instanceId: migration.sourceInstanceId, castAt: command.now },
    },
  ];
};

/** The outcome of the claimed `migration_start` driver call. */
const recordCopy = (command: Command<'RecordShareMigrationCopy'>, state: ActiveShare) => {
  const migration = migrationOf(state);
  const destination = migration && destinationOf(state, migration);
  if (!migration || destination?.pendingOperation?.commandId !== command.commandId) return [];
  if (command.status === 'error') return [failed(state, migration, command.message, command.now)];
  const events: ShareEvent[] = [
    {
      type: 'ShareMigrationCopyStarted',
      data: {
        commandId: command.commandId,
        progress: command.progress,
        copyStartedAt: command.now,
      },
    },
  ];
  if (command.status === 'done') events.push(phase1Done(command.exportLocations, command.now));
  return events;
};

const recordProgress = (command: Command<'RecordShareMigrationProgress'>, state: ActiveShare) => {
  const migration = migrationOf(state);
  if (!migration || !state.taskState || !COPYING_TASK_STATES.has(state.taskState)) return [];
  switch (command.status) {
    case 'error':
      return [failed(state, migration, command.message, command.now)];
    case 'done':
      return [phase1Done(command.exportLocations, command.now)];
    case 'copying':
      return command.progress > migration.progress
        ? [
            {
              type: 'ShareMigrationProgressed' as const,
              data: { progress: Math.min(99, command.progress), progressedAt: command.now },
            },
          ]
        : [];
  }
};

const phase1Done = (exportLocations: ExportLocation[], doneAt: string): ShareEvent => ({
  type: 'ShareMigrationFirstPhaseCompleted',
  data: { exportLocations, doneAt },
});

/**
 * Manila's _migration_validate_error_message: why a migration action does not apply now, or
 * null when the task state gives no particular reason.
 */
export const migrationStateMessage = (state: ActiveShare): string | null => {
  switch (state.taskState ?? null) {
    case 'migration_success':
      return `Migration of share ${state.id} has already completed.`;
    case null:
    case 'migration_error':
      return `There is no migration being performed for share ${state.id} at this moment.`;
    case 'migration_cancelled':
      return `Migration of share ${state.id} was already cancelled.`;
    case 'migration_driver_phase1_done':
    case 'data_copying_completed':
      return `Migration of share ${state.id} has already completed first phase.`;
    default:
      return null;
  }
};

const completeMigration = (command: Command<'CompleteShareMigration'>, state: ActiveShare) => {
  const migration = migrationOf(state);
  if (!migration || !state.taskState || !PHASE1_DONE_TASK_STATES.has(state.taskState)) {
    throw invalid(
      `Invalid share: ${migrationStateMessage(state) ?? `First migration phase of share ${state.id} not completed yet.`}`,
    );
  }
  instancesInPlace(state, migration);
  return [
    {
      type: 'ShareMigrationCompletionRequested' as const,
      data: {
        sourceInstanceId: migration.sourceInstanceId,
        destinationInstanceId: migration.destinationInstanceId,
        requestedAt: command.now,
      },
    },
  ];
};

/** Manila's get_migrating_instances: both must be there, in their migration statuses. */
const instancesInPlace = (state: ActiveShare, migration: MigrationState): void => {
  const source = state.instances.find((i) => i.id === migration.sourceInstanceId);
  const destination = destinationOf(state, migration);
  if (source?.status !== 'migrating' || destination?.status !== 'migrating_to') {
    throw invalid(
      `Share instances ${source?.id ?? 'None'} and ${destination?.id ?? 'None'} in inconsistent states, cannot continue share migration for share ${state.id}.`,
    );
  }
};

const CANCELLABLE = new Set([
  'data_copying_completed',
  'migration_driver_phase1_done',
  'migration_driver_in_progress',
  'data_copying_in_progress',
]);

const cancelMigration = (command: Command<'CancelShareMigration'>, state: ActiveShare) => {
  const migration = migrationOf(state);
  if (!migration || !state.taskState || !CANCELLABLE.has(state.taskState)) {
    throw invalid(
      `Invalid share: ${migrationStateMessage(state) ?? `Migration of share ${state.id} cannot be cancelled at this moment.`}`,
    );
  }
  instancesInPlace(state, migration);
  return [
    {
      type: 'ShareMigrationCancelRequested' as const,
      data: { destinationInstanceId: migration.destinationInstanceId, requestedAt: command.now },
    },
  ];
};

/** The source instance is gone after a completion: the migration is a success. */
const recordCompleted = (command: Command<'RecordShareMigrationCompleted'>, state: ActiveShare) => {
  const migration = migrationOf(state);
  if (!migration || state.taskState !== 'migration_completing') return [];
  if (state.instances.some((i) => i.id === migration.sourceInstanceId)) return [];
  return [{ type: 'ShareMigrationCompleted' as const, data: { completedAt: command.now } }];
};

/** The destination instance is gone after a cancellation. */
const recordCancelled = (command: Command<'RecordShareMigrationCancelled'>, state: ActiveShare) => {
  const migration = migrationOf(state);
  if (!migration || state.taskState !== 'migration_cancel_in_progress') return [];
  if (destinationOf(state, migration)) return [];
  return [{ type: 'ShareMigrationCancelled' as const, data: { cancelledAt: command.now } }];
};

/** A failure before completion: only a migration whose destination is not yet switched to. */
const failMigration = (command: Command<'FailShareMigration'>, state: ActiveShare) => {
  const migration = migrationOf(state);
  if (!migration || !state.taskState || !FAILABLE.has(state.taskState)) return [];
  return [failed(state, migration, command.message, command.now)];
};

const FAILABLE = new Set([
  'migration_starting',
  'migration_in_progress',
  'migration_driver_starting',
  'migration_driver_in_progress',
  'data_copying_starting',
  'data_copying_in_progress',
]);

const failed = (
  state: ActiveShare,
  migration: MigrationState,
  message: string | null,
  now: string,
): ShareEvent => ({
  type: 'ShareMigrationFailed',
  data: {
    destinationInstanceId: migration.destinationInstanceId,
    // A destination no driver was asked for is dropped; one a driver may hold is deleted.
    destinationCleanup: migration.method !== null,
    message: message ?? `Share migration of share ${state.id} failed.`,
    failedAt: now,
  },
});

const resetTaskState = (command: Command<'ResetShareTaskState'>): ShareEvent[] => {
  if (!RESETTABLE_TASK_STATES.includes(command.taskState)) {
    throw invalidState(RESETTABLE_TASK_STATES);
  }
  return [
    { type: 'ShareTaskStateReset', data: { taskState: command.taskState, resetAt: command.now } },
  ];
};

const destinationOf = (
  state: ActiveShare,
  migration: MigrationState,
): ShareInstanceState | undefined =>
  state.instances.find((i) => i.id === migration.destinationInstanceId);

const STARTING = new Set(['migration_driver_starting', 'data_copying_starting']);

/** The source's rule mappings (one per rule it holds). */
const sourceMappings = (state: ActiveShare, migration: MigrationState) =>
  state.accessRules.flatMap((rule) => rule.instances[migration.sourceInstanceId] ?? []);

/**
 * Whether the destination's node may claim the driver's start of the data move: the method is
 * chosen and, when the source's rules are cast read-only, its node has applied them so
 * (Manila waits for that access update before the copy).
 */
export const migrationStartIsDue = (state: ActiveShare, instance: ShareInstanceState): boolean => {
  const migration = state.migration;
  if (migration?.destinationInstanceId !== instance.id || !STARTING.has(state.taskState ?? '')) {
    return false;
  }
  return (
    !migration.sourceRulesReadOnly || sourceMappings(state, migration).every((s) => s === 'active')
  );
};

/**
 * What a node does for an instance after a migration's access step (the source's rules cast,
 * an access update on it, the migration over): `update` its queued rules, `start` the copy
 * once the cast rules are applied, `fail` the migration when they could not be, or nothing.
 */
export const migrationAccessStep = (
  state: ActiveShare,
  instance: ShareInstanceState,
): 'update' | 'start' | 'fail' | 'none' => {
  if (instance.pendingOperation) return 'none';
  const mappings = state.accessRules.flatMap((rule) => rule.instances[instance.id] ?? []);
  if (mappings.some((s) => s === 'queued_to_apply' || s === 'queued_to_deny')) return 'update';
  const migration = state.migration;
  if (
    !migration?.sourceRulesReadOnly ||
    migration.sourceInstanceId !== instance.id ||
    !STARTING.has(state.taskState ?? '')
  ) {
    return 'none';
  }
  if (mappings.includes('error')) return 'fail';
  return mappings.every((s) => s === 'active') ? 'start' : 'none';
};

export const decideMigration = (command: MigrationCommand, state: ActiveShare): ShareEvent[] => {
  switch (command.type) {
    case 'StartShareMigration':
      return startShareMigration(command, state);
    case 'AcceptShareMigrationHost':
      return acceptHost(command, state);
    case 'ChooseShareMigrationMethod':
      return chooseMethod(command, state);
    case 'RecordShareMigrationCopy':
      return recordCopy(command, state);
    case 'RecordShareMigrationProgress':
      return recordProgress(command, state);
    case 'CompleteShareMigration':
      return completeMigration(command, state);
    case 'RecordShareMigrationCompleted':
      return recordCompleted(command, state);
    case 'CancelShareMigration':
      return cancelMigration(command, state);
    case 'RecordShareMigrationCancelled':
      return recordCancelled(command, state);
    case 'FailShareMigration':
      return failMigration(command, state);
    case 'ResetShareTaskState':
      return resetTaskState(command);
    default:
      return assertNever(command);
  }
};
