import {
  derivedId,
  replicaSnapshotRefreshIsDue,
  replicasOf,
  shareDecider,
  shareStream,
  type ShareCommand,
  type ShareInstanceState,
  type ActiveShare,
  type SnapshotInstanceOutcome,
  type SnapshotInstanceState,
  type SnapshotState,
} from '#hawser/domain';
import type {
  ShareDriver,
  ShareInstanceRef,
  SnapshotInstanceRef,
  SnapshotInstanceUpdate,
} from '#hawser/drivers';
import { driverFailureMessage, nodeCommandContext } from './node-outcome.js';
import { NodeDriverCalls, type RefOf } from './node-driver-calls.js';

/** Every placed replica of the share, as Manila's replica_list. */
export const placedReplicaRefs = (state: ActiveShare, refOf: RefOf): ShareInstanceRef[] =>
  replicasOf(state)
    .filter((i) => i.host !== '')
    .map((i) => refOf(state, i));

/** A driver's status for one instance, as the share records it. */
const outcomeOf = (update: SnapshotInstanceUpdate): SnapshotInstanceOutcome => {
  const status =
    update.status === 'available' || update.status === 'creating' ? update.status : 'error';
  const progress = update.progress ?? (status === 'available' ? 100 : 0);
  return {
    snapshotInstanceId: update.snapshotInstanceId,
    status,
    progress: `${progress}%`,
    providerLocation: update.providerLocation ?? null,
  };
};

/**
 * The driver calls for snapshots of a share with replicas (reference 5.7, 5.8): create and
 * delete every instance from the active replica's node once claimed (run again on recovery: the
 * drivers make a repeated call with the same command id harmless), and refresh the instances on
 * a non-active replica this node holds (Manila's periodic_share_replica_snapshot_update).
 */
export class ReplicatedSnapshotCalls extends NodeDriverCalls {
  /** Calls the driver for a claimed operation on the active replica; the outcome command. */
  async call(
    driver: ShareDriver,
    operation: 'create_replicated_snapshot' | 'delete_replicated_snapshot',
    state: ActiveShare,
    snapshotId: string,
    commandId: string,
  ): Promise<ShareCommand> {
    const snapshot = state.snapshots.find((s) => s.id === snapshotId) as SnapshotState;
    const replicaList = placedReplicaRefs(state, this.refOf);
    const now = this.clock;
    if (operation === 'create_replicated_snapshot') {
      // A replica still being built gets its instance from the refresh once it is.
      const replicaSnapshots = this.instanceRefs(state, snapshot, (r) => r.status !== 'creating');
      try {
        const result = await driver.createReplicatedSnapshot({
          commandId,
          replicaList,
          replicaSnapshots,
        });
        return {
          type: 'CompleteReplicatedSnapshotCreation',
          snapshotId,
          commandId,
          instances: result.snapshotInstances.map(outcomeOf),
          now: now(),
        };
      } catch (error) {
        const message = driverFailureMessage(this.logger, error, 'create the snapshot');
        return {
          type: 'FailReplicatedSnapshotCreation',
          snapshotId,
          commandId,
          message,
          now: now(),
        };
      }
    }
    const replicaSnapshots = this.instanceRefs(state, snapshot, () => true);
    // An instance on a replica that never reached a pool has nothing to delete on a back end.
    const hostless = snapshot.instances
      .filter((i) => !replicaSnapshots.some((r) => r.snapshotInstanceId === i.id))
      .map((i) => i.id);
    try {
      const result = await driver.deleteReplicatedSnapshot({
        commandId,
        replicaList,
        replicaSnapshots,
      });
      const deleted = result.snapshotInstances
        .filter((u) => u.status === 'deleted')
        .map((u) => u.snapshotInstanceId);
      return {
        type: 'CompleteReplicatedSnapshotDeletion',
        snapshotId,
        commandId,
        snapshotInstanceIds: [...deleted, ...hostless],
        now: now(),
      };
    } catch (error) {
      const message = driverFailureMessage(this.logger, error, 'delete the snapshot');
      return { type: 'FailReplicatedSnapshotDeletion', snapshotId, commandId, message, now: now() };
    }
  }

  /**
   * Asks the driver of a replica about each of its snapshot instances still `creating` or
   * `deleting` (update_replicated_snapshot) and records the answer; the replica that
   * coordinates a snapshot is left out (see replicaSnapshotRefreshIsDue). Nothing is
   * claimed: the driver makes the call repeatable, and the decider ignores an instance that
   * left its transition meanwhile.
   */
  async refresh(state: ActiveShare, replica: ShareInstanceState, commandId: string): Promise<void> {
    const driver = this.driverFor(replica.host);
    if (!driver || replica.status === 'creating' || replica.status === 'deleting') return;
    const replicaList = placedReplicaRefs(state, this.refOf);
    for (const snapshot of state.snapshots) {
      const instance = snapshot.instances.find((i) => i.shareInstanceId === replica.id);
      if (!instance || !replicaSnapshotRefreshIsDue(state, snapshot, instance)) continue;
      const replicaSnapshot = this.refOfInstance(state, snapshot, instance);
      const outcome = await driver
        .updateReplicatedSnapshot({
          commandId: derivedId(commandId, instance.id),
          replicaList,
          shareReplica: this.refOf(state, replica),
          replicaSnapshots: this.instanceRefs(state, snapshot, () => true),
          replicaSnapshot,
        })
        .then(
          (update) => {
            const { status, progress } = outcomeOf(update);
            return { status, progress };
          },
          (error: unknown) => {
            if ((error as { code?: unknown }).code === 'snapshot_not_found') {
              return 'not_found' as const;
            }
            driverFailureMessage(this.logger, error, 'update the replica snapshot');
            return 'failed' as const;
          },
        );
      await this.commands.handle(
        shareDecider,
        shareStream(state.id),
        {
          type: 'RefreshReplicaSnapshot',
          snapshotId: snapshot.id,
          snapshotInstanceId: instance.id,
          outcome,
          now: this.clock(),
        },
        nodeCommandContext(derivedId(commandId, `${instance.id}:outcome`), commandId),
        { retryOnConflict: 5 },
      );
    }
  }

  /** The snapshot's instances on placed replicas that `include` accepts, as the driver sees them. */
  private instanceRefs(
    state: ActiveShare,
    snapshot: SnapshotState,
    include: (replica: ShareInstanceState) => boolean,
  ): SnapshotInstanceRef[] {
    return snapshot.instances.flatMap((instance) => {
      const replica = state.instances.find((r) => r.id === instance.shareInstanceId);
      return replica && replica.host !== '' && include(replica)
        ? [this.refOfInstance(state, snapshot, instance)]
        : [];
    });
  }

  private refOfInstance(
    state: ActiveShare,
    snapshot: SnapshotState,
    instance: SnapshotInstanceState,
  ): SnapshotInstanceRef {
    const status = instance.status;
    return {
      snapshotId: snapshot.id,
      snapshotInstanceId: instance.id,
      shareId: state.id,
      shareInstanceId: instance.shareInstanceId,
      sizeGiB: snapshot.size,
      status:
        status === 'available' ||
        status === 'creating' ||
        status === 'deleting' ||
        status === 'error'
          ? status
          : 'error',
    };
  }
}
