import {
  castsRulesToReadonly,
  type ShareCommand,
  type ShareInstanceState,
  type ActiveShare,
  type SnapshotState,
} from '#hawser/domain';
import {
  DriverError,
  type AccessRule,
  type ShareDriver,
  type SnapshotInstanceRef,
} from '#hawser/drivers';
import { NodeDriverCalls, type NodeDriverCallParts } from './node-driver-calls.js';
import { manageCall, snapshotManageCall } from './share-manage-calls.js';
import { exportLocationsOf } from './share-from-snapshot-calls.js';
import { driverFailureMessage } from './node-outcome.js';
import type { OutcomeRecorder } from './outcome-recorder.js';
import type { ReplicatedSnapshotCalls } from './replicated-snapshot-calls.js';
import type { ShareReplicaCalls } from './share-replica-calls.js';

/**
 * The driver calls of a claimed operation on a living share (snapshots, revert, access, resize,
 * replicas, snapshots of replicated shares), and the command that records each outcome (kept
 * by the outcome recorder until its append succeeds). Run once after the claim, or again on
 * recovery: the driver makes a repeated call with the same command id harmless.
 */
export class ShareMaintenanceCalls extends NodeDriverCalls {
  constructor(
    parts: NodeDriverCallParts,
    private readonly outcomes: OutcomeRecorder,
    private readonly replicas: ShareReplicaCalls,
    private readonly replicatedSnapshots: ReplicatedSnapshotCalls,
  ) {
    super(...parts);
  }

  /** Runs the operation claimed on `instance` by `commandId` and records its outcome. */
  async run(
    state: ActiveShare,
    instance: ShareInstanceState,
    commandId: string,
    causationId: string,
  ) {
    const pending = instance.pendingOperation;
    const driver = this.driverFor(instance.host);
    if (!pending || pending.commandId !== commandId || !driver) return;
    const outcome = await this.call(driver, state, instance, commandId);
    await this.outcomes.record(state.id, commandId, causationId, outcome);
  }

  private async call(
    driver: ShareDriver,
    state: ActiveShare,
    instance: ShareInstanceState,
    commandId: string,
  ): Promise<ShareCommand> {
    const pending = instance.pendingOperation as NonNullable<
      ShareInstanceState['pendingOperation']
    >;
    const share = this.refOf(state, instance);
    const now = this.clock;
    const target = {
      snapshotId: pending.snapshotId ?? '',
      snapshotInstanceId: pending.snapshotInstanceId ?? '',
    };
    switch (pending.operation) {
      case 'create_snapshot':
        try {
          const result = await driver.createSnapshot({
            commandId,
            share,
            snapshot: this.snapshotRef(state, instance, target),
          });
          return {
            type: 'CompleteSnapshotInstanceCreation',
            ...target,
            commandId,
            status: result.status,
            progress: `${result.progress}%`,
            providerLocation: result.providerLocation ?? null,
            exportLocations: exportLocationsOf(commandId, result.exportLocations ?? []),
            now: now(),
          };
        } catch (error) {
          const message = this.messageOf(error, 'create the snapshot');
          return {
            type: 'FailSnapshotInstanceCreation',
            ...target,
            commandId,
            message,
            now: now(),
          };
        }
      case 'delete_snapshot':
        try {
          await driver.deleteSnapshot({
            commandId,
            share,
            snapshot: this.snapshotRef(state, instance, target),
          });
          return { type: 'CompleteSnapshotInstanceDeletion', ...target, commandId, now: now() };
        } catch (error) {
          const message = this.messageOf(error, 'delete the snapshot');
          return {
            type: 'FailSnapshotInstanceDeletion',
            ...target,
            commandId,
            message,
            now: now(),
          };
        }
      case 'revert_to_snapshot':
        try {
          await driver.revertToSnapshot({
            commandId,
            share,
            snapshot: this.snapshotRef(state, instance, target),
          });
          return { type: 'CompleteShareRevert', instanceId: instance.id, commandId, now: now() };
        } catch (error) {
          const message = this.messageOf(error, 'revert the share to the snapshot');
          return {
            type: 'FailShareRevert',
            instanceId: instance.id,
            commandId,
            message,
            now: now(),
          };
        }
      case 'manage_share':
      case 'unmanage_share':
        return manageCall(driver, pending.operation, state, share, commandId, now, (error) =>
          this.messageOf(
            error,
            pending.operation === 'manage_share' ? 'manage the share' : 'unmanage the share',
          ),
        );
      case 'manage_snapshot':
      case 'unmanage_snapshot': {
        const ref = this.snapshotRef(state, instance, target);
        const snapshot = state.snapshots.find((s) => s.id === target.snapshotId);
        const request = { commandId, share, snapshot: ref };
        return snapshotManageCall(driver, pending.operation, request, snapshot, now, (error) =>
          this.messageOf(
            error,
            pending.operation === 'manage_snapshot'
              ? 'manage the snapshot'
              : 'unmanage the snapshot',
          ),
        );
      }
      case 'update_snapshot_access':
        return this.snapshotAccessCall(driver, state, instance, commandId, target);
      case 'update_access':
        try {
          const result = await driver.updateAccess({
            commandId,
            share,
            ...this.accessChanges(state, instance),
          });
          return {
            type: 'CompleteAccessUpdate',
            instanceId: instance.id,
            commandId,
            ruleUpdates: { ...result.ruleUpdates },
            now: now(),
          };
        } catch (error) {
          const message = this.messageOf(error, 'update access rules');
          return {
            type: 'FailAccessUpdate',
            instanceId: instance.id,
            commandId,
            message,
            now: now(),
          };
        }
      case 'extend_share':
      case 'shrink_share': {
        const newSizeGiB = state.pendingResize?.newSize ?? state.size;
        try {
          if (pending.operation === 'extend_share') {
            await driver.extendShare({ commandId, share, newSizeGiB });
          } else {
            await driver.shrinkShare({ commandId, share, newSizeGiB });
          }
          return {
            type: 'CompleteShareInstanceResize',
            instanceId: instance.id,
            commandId,
            now: now(),
          };
        } catch (error) {
          return {
            type: 'FailShareInstanceResize',
            instanceId: instance.id,
            commandId,
            message: this.messageOf(error, 'resize the share'),
            possibleDataLoss:
              error instanceof DriverError && error.code === 'shrinking_possible_data_loss',
            now: now(),
          };
        }
      }
      case 'create_replica':
      case 'delete_replica':
      case 'promote_replica':
        return this.replicas.call(driver, pending.operation, state, instance, commandId);
      case 'create_replicated_snapshot':
      case 'delete_replicated_snapshot':
        return this.replicatedSnapshots.call(
          driver,
          pending.operation,
          state,
          target.snapshotId,
          commandId,
        );
      default:
        throw new Error(`${pending.operation} is not a maintenance operation`);
    }
  }

  private snapshotRef(
    state: ActiveShare,
    instance: ShareInstanceState,
    target: { snapshotId: string; snapshotInstanceId: string },
  ): SnapshotInstanceRef {
    const snapshot = state.snapshots.find((s) => s.id === target.snapshotId) as SnapshotState;
    const snapshotInstance = snapshot.instances.find((i) => i.id === target.snapshotInstanceId);
    return {
      snapshotId: snapshot.id,
      snapshotInstanceId: target.snapshotInstanceId,
      shareId: state.id,
      shareInstanceId: instance.id,
      sizeGiB: snapshot.size,
      ...(snapshotInstance && {
        status: snapshotInstance.status === 'deleting' ? 'deleting' : 'creating',
      }),
    };
  }

  /**
   * Manila's snapshot_update_access: the snapshot's rules, every one read-only, with those
   * queued to be added and removed; the outcome settles the queued ones.
   */
  private async snapshotAccessCall(
    driver: ShareDriver,
    state: ActiveShare,
    instance: ShareInstanceState,
    commandId: string,
    target: { snapshotId: string; snapshotInstanceId: string },
  ): Promise<ShareCommand> {
    const rules = state.snapshots.find((s) => s.id === target.snapshotId)?.accessRules ?? [];
    const toDriver = (rule: (typeof rules)[number]): AccessRule => ({
      accessId: rule.id,
      accessType: rule.accessType,
      accessTo: rule.accessTo,
      accessLevel: 'ro',
    });
    const on = (...states: string[]) => rules.filter((r) => states.includes(r.state)).map(toDriver);
    try {
      await driver.snapshotUpdateAccess({
        commandId,
        share: this.refOf(state, instance),
        snapshot: this.snapshotRef(state, instance, target),
        accessRules: on('queued_to_apply', 'applying', 'active'),
        addRules: on('queued_to_apply', 'applying'),
        deleteRules: on('queued_to_deny', 'denying'),
      });
      return { type: 'CompleteSnapshotAccessUpdate', ...target, commandId, now: this.clock() };
    } catch (error) {
      const message = this.messageOf(error, 'update the snapshot access rules');
      return { type: 'FailSnapshotAccessUpdate', ...target, commandId, message, now: this.clock() };
    }
  }

  /** Manila's update_access arguments for one instance (reference 2.5 step 3). */
  private accessChanges(state: ActiveShare, instance: ShareInstanceState) {
    const toDriver = (rule: ActiveShare['accessRules'][number]): AccessRule => ({
      accessId: rule.id,
      accessType: rule.accessType,
      accessTo: rule.accessTo,
      accessLevel: rule.accessLevel,
    });
    const on = (...states: string[]) =>
      state.accessRules
        .filter((r) => states.includes(r.instances[instance.id] ?? ''))
        .map(toDriver);
    // Readable non-active replicas, and a migration's source while its data moves, enforce
    // every rule read-only, as a full resync.
    const castRulesToReadonly = castsRulesToReadonly(state, instance);
    return {
      accessRules: on('applying', 'active'),
      addRules: castRulesToReadonly ? [] : on('applying'),
      deleteRules: castRulesToReadonly ? [] : on('denying'),
      castRulesToReadonly,
    };
  }

  private messageOf(error: unknown, what: string): string {
    return driverFailureMessage(this.logger, error, what);
  }
}
