import type { AccessRuleState } from './share-access.state.js';
import type { MigrationEvent } from './share-migration.events.js';
import type { MigrationState, TaskState } from './share-migration.types.js';
import { newShareInstance, type ActiveShare, type ShareInstanceState } from './share.state.js';
import type { ShareStatus } from './share.types.js';

const withInstance = (
  state: ActiveShare,
  instanceId: string,
  update: (instance: ShareInstanceState) => ShareInstanceState | null,
): ActiveShare => ({
  ...state,
  instances: state.instances.flatMap((i) => {
    if (i.id !== instanceId) return [i];
    const updated = update(i);
    return updated ? [updated] : [];
  }),
});

const withStatus = (
  state: ActiveShare,
  instanceId: string,
  status: ShareStatus,
  at: string,
): ActiveShare =>
  withInstance(state, instanceId, (i) => ({
    ...i,
    status,
    pendingOperation: null,
    updatedAt: at,
  }));

const withMigration = (
  state: ActiveShare,
  taskState: TaskState,
  update: (migration: MigrationState) => MigrationState = (m) => m,
): ActiveShare => ({
  ...state,
  taskState,
  migration: state.migration ? update(state.migration) : null,
});

/** At completion every rule the source had is queued on the destination (Manila moves them). */
const rulesMovedTo = (
  rules: readonly AccessRuleState[],
  sourceId: string,
  destinationId: string,
): AccessRuleState[] =>
  rules.map((rule) => {
    const onSource = rule.instances[sourceId];
    if (onSource === undefined || onSource === 'queued_to_deny' || onSource === 'denying') {
      return rule;
    }
    return { ...rule, instances: { ...rule.instances, [destinationId]: 'queued_to_apply' } };
  });

/** The instance's applied and in-flight rules queued again: its node applies them anew. */
const requeued = (
  rules: readonly AccessRuleState[],
  instanceId: string,
  at: string,
): AccessRuleState[] =>
  rules.map((rule) => {
    const current = rule.instances[instanceId];
    if (current !== 'active' && current !== 'applying') return rule;
    return {
      ...rule,
      instances: { ...rule.instances, [instanceId]: 'queued_to_apply' },
      updatedAt: at,
    };
  });

const sourceIdOf = (state: ActiveShare): string => state.migration?.sourceInstanceId ?? '';

/** A cancel or failure gives rules cast read-only for the copy their own levels back. */
const withRulesRestored = (state: ActiveShare, at: string): ActiveShare =>
  state.migration?.sourceRulesReadOnly
    ? { ...state, accessRules: requeued(state.accessRules, sourceIdOf(state), at) }
    : state;

export const evolveMigration = (state: ActiveShare, event: MigrationEvent): ActiveShare => {
  switch (event.type) {
    case 'ShareMigrationStarted': {
      const d = event.data;
      const destination = newShareInstance(
        d.destinationInstanceId,
        'migrating_to',
        d.host,
        d.availabilityZone,
        d.startedAt,
        { progress: '0%' },
      );
      const moving = withStatus(state, d.sourceInstanceId, 'migrating', d.startedAt);
      return {
        ...moving,
        instances: [...moving.instances, destination],
        taskState: 'migration_starting',
        migration: {
          sourceInstanceId: d.sourceInstanceId,
          destinationInstanceId: d.destinationInstanceId,
          destinationHost: d.host,
          destinationAvailabilityZone: d.availabilityZone,
          options: d.options,
          newShareType: d.newShareType,
          hintsOverride: d.hintsOverride,
          method: null,
          sourceRulesReadOnly: false,
          progress: 0,
          destinationExportLocations: [],
        },
      };
    }
    case 'ShareMigrationSkipped':
      return { ...state, taskState: 'migration_success' };
    case 'ShareMigrationHostAccepted':
      return withMigration(state, 'migration_in_progress');
    case 'ShareMigrationMethodSelected': {
      const { method } = event.data;
      const taskState = method === 'driver' ? 'migration_driver_starting' : 'data_copying_starting';
      return withMigration(state, taskState, (m) => ({ ...m, method }));
    }
    case 'ShareMigrationReadOnlyAccessQueued': {
      const d = event.data;
      const cast = withMigration(state, state.taskState ?? 'migration_in_progress', (m) => ({
        ...m,
        sourceRulesReadOnly: true,
      }));
      return { ...cast, accessRules: requeued(state.accessRules, d.instanceId, d.castAt) };
    }
    case 'ShareMigrationCopyStarted': {
      const d = event.data;
      const taskState =
        state.migration?.method === 'driver'
          ? 'migration_driver_in_progress'
          : 'data_copying_in_progress';
      const destinationId = state.migration?.destinationInstanceId ?? '';
      const released = withInstance(state, destinationId, (i) => ({
        ...i,
        pendingOperation: null,
        progress: `${d.progress}%`,
        updatedAt: d.copyStartedAt,
      }));
      return withMigration(released, taskState, (m) => ({ ...m, progress: d.progress }));
    }
    case 'ShareMigrationProgressed': {
      const d = event.data;
      const destinationId = state.migration?.destinationInstanceId ?? '';
      const progressed = withInstance(state, destinationId, (i) => ({
        ...i,
        progress: `${d.progress}%`,
        updatedAt: d.progressedAt,
      }));
      return withMigration(progressed, state.taskState ?? 'data_copying_in_progress', (m) => ({
        ...m,
        progress: d.progress,
      }));
    }
    case 'ShareMigrationFirstPhaseCompleted': {
      const d = event.data;
      const taskState =
        state.migration?.method === 'driver'
          ? 'migration_driver_phase1_done'
          : 'data_copying_completed';
      const destinationId = state.migration?.destinationInstanceId ?? '';
      const done = withInstance(state, destinationId, (i) => ({
        ...i,
        progress: '100%',
        updatedAt: d.doneAt,
      }));
      return withMigration(done, taskState, (m) => ({
        ...m,
        progress: 100,
        destinationExportLocations: d.exportLocations,
      }));
    }
    case 'ShareMigrationCompletionRequested': {
      const d = event.data;
      const migration = state.migration;
      const switched = withInstance(state, d.destinationInstanceId, (i) => ({
        ...i,
        status: 'available',
        exportLocations: migration?.destinationExportLocations ?? [],
        updatedAt: d.requestedAt,
      }));
      const retired = withStatus(switched, d.sourceInstanceId, 'deleting', d.requestedAt);
      const newType = migration?.newShareType;
      return {
        ...withMigration(retired, 'migration_completing'),
        accessRules: rulesMovedTo(state.accessRules, d.sourceInstanceId, d.destinationInstanceId),
        ...(newType && { shareType: newType.shareType, capabilities: newType.capabilities }),
      };
    }
    case 'ShareMigrationCompleted':
      return { ...state, taskState: 'migration_success', migration: null };
    case 'ShareMigrationCancelRequested': {
      const d = event.data;
      const retired = withStatus(state, d.destinationInstanceId, 'deleting', d.requestedAt);
      return withMigration(retired, 'migration_cancel_in_progress');
    }
    case 'ShareMigrationCancelled': {
      const at = event.data.cancelledAt;
      const restored = withStatus(withRulesRestored(state, at), sourceIdOf(state), 'available', at);
      return { ...restored, taskState: 'migration_cancelled', migration: null };
    }
    case 'ShareMigrationFailed': {
      const d = event.data;
      const at = d.failedAt;
      const restored = withStatus(withRulesRestored(state, at), sourceIdOf(state), 'available', at);
      const cleaned = d.destinationCleanup
        ? withStatus(restored, d.destinationInstanceId, 'deleting', d.failedAt)
        : withInstance(restored, d.destinationInstanceId, () => null);
      return { ...cleaned, taskState: 'migration_error', migration: null };
    }
    case 'ShareTaskStateReset':
      return { ...state, taskState: event.data.taskState };
  }
};
