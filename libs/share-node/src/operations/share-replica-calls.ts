import {
  derivedId,
  shareDecider,
  shareStream,
  snapshotAggregateStatus,
  type ExportLocation,
  type ShareCommand,
  type ShareInstanceState,
  type ActiveShare,
} from '#hawser/domain';
import {
  type AccessRule,
  type ExportLocation as DriverExportLocation,
  type ReplicaSnapshotPair,
  type ShareDriver,
  type ShareInstanceRef,
  type SnapshotInstanceRef,
} from '#hawser/drivers';
import { driverFailureMessage, nodeCommandContext } from './node-outcome.js';
import { placedReplicaRefs } from './replicated-snapshot-calls.js';
import { NodeDriverCalls } from './node-driver-calls.js';

/**
 * The driver calls of replication (reference 5): create, delete and promote a replica once
 * claimed (run by the maintenance calls, again on recovery: the drivers make a repeated call with
 * the same command id harmless), and refresh a replica's state, recorded here.
 */
export class ShareReplicaCalls extends NodeDriverCalls {
  /**
   * Asks the driver how far the replica is behind the active one (Manila's
   * update_replica_state) and records a changed replica_state. Nothing is claimed: the call
   * only reads and re-syncs, and the decider ignores a replica that is busy meanwhile.
   */
  async refresh(state: ActiveShare, replica: ShareInstanceState, commandId: string) {
    const driver = this.driverFor(replica.host);
    const active = state.instances.find((i) => i.replicaState === 'active');
    if (!driver || replica.replicaState === 'active' || replica.pendingOperation) return;
    let outcome: Extract<ShareCommand, { type: 'RefreshReplicaState' }>['outcome'] = 'error';
    if (active) {
      try {
        const result = await driver.updateReplicaState({
          commandId,
          replicaList: this.replicaList(state),
          replica: this.refOf(state, replica),
          accessRules: this.rulesOn(state, replica),
          replicaSnapshots: this.snapshotPairs(state, active, replica),
        });
        outcome = result.replicaState;
      } catch (error) {
        this.messageOf(error, 'update the replica state');
        outcome = 'failed';
      }
    }
    await this.commands.handle(
      shareDecider,
      shareStream(state.id),
      { type: 'RefreshReplicaState', replicaId: replica.id, outcome, now: this.clock() },
      nodeCommandContext(derivedId(commandId, 'outcome'), commandId),
      { retryOnConflict: 5 },
    );
  }

  /** Calls the driver for a claimed replica operation; the command that records its outcome. */
  async call(
    driver: ShareDriver,
    operation: 'create_replica' | 'delete_replica' | 'promote_replica',
    state: ActiveShare,
    replica: ShareInstanceState,
    commandId: string,
  ): Promise<ShareCommand> {
    const replicaId = replica.id;
    const now = this.clock;
    switch (operation) {
      case 'create_replica': {
        const active = state.instances.find(
          (i) => i.replicaState === 'active' && i.status === 'available',
        );
        if (!active) {
          const message = 'The share has no active replica in available status.';
          return { type: 'FailReplicaCreation', replicaId, commandId, message, now: now() };
        }
        const pairs = this.snapshotPairs(state, active, replica);
        try {
          const result = await driver.createReplica({
            commandId,
            replicaList: this.replicaList(state),
            newReplica: this.refOf(state, replica),
            accessRules: this.rulesOn(state, replica),
            replicaSnapshots: pairs,
          });
          return {
            type: 'CompleteReplicaCreation',
            replicaId,
            commandId,
            replicaState: result.replicaState,
            exportLocations: this.locations(commandId, result.exportLocations),
            accessRulesStatus: result.accessRulesStatus,
            snapshotInstanceIds: pairs.map((p) => p.shareReplicaSnapshot.snapshotInstanceId),
            now: now(),
          };
        } catch (error) {
          const message = this.messageOf(error, 'create the replica');
          return { type: 'FailReplicaCreation', replicaId, commandId, message, now: now() };
        }
      }
      case 'delete_replica':
        try {
          await driver.deleteReplica({
            commandId,
            replicaList: this.replicaList(state),
            replica: this.refOf(state, replica),
            replicaSnapshots: this.snapshotsOn(state, replica),
          });
          return { type: 'CompleteReplicaDeletion', replicaId, commandId, now: now() };
        } catch (error) {
          const message = this.messageOf(error, 'delete the replica');
          return { type: 'FailReplicaDeletion', replicaId, commandId, message, now: now() };
        }
      case 'promote_replica':
        try {
          const result = await driver.promoteReplica({
            commandId,
            replicaList: this.replicaList(state),
            replica: this.refOf(state, replica),
            accessRules: this.rulesOn(state, replica),
          });
          return {
            type: 'CompleteReplicaPromotion',
            replicaId,
            commandId,
            replicas: result.replicas.map((r) => ({
              replicaId: r.instanceId,
              ...(r.replicaState && { replicaState: r.replicaState }),
              ...(r.exportLocations && {
                exportLocations: this.locations(
                  derivedId(commandId, r.instanceId),
                  r.exportLocations,
                ),
              }),
            })),
            now: now(),
          };
        } catch (error) {
          const message = this.messageOf(error, 'promote the replica');
          return { type: 'FailReplicaPromotion', replicaId, commandId, message, now: now() };
        }
    }
  }

  private replicaList(state: ActiveShare): ShareInstanceRef[] {
    return placedReplicaRefs(state, this.refOf);
  }

  /** The share's rules as they stand on the replica (queued ones included: they are due). */
  private rulesOn(state: ActiveShare, replica: ShareInstanceState): AccessRule[] {
    return state.accessRules
      .filter((r) =>
        ['queued_to_apply', 'applying', 'active'].includes(r.instances[replica.id] ?? ''),
      )
      .map((r) => ({
        accessId: r.id,
        accessType: r.accessType,
        accessTo: r.accessTo,
        accessLevel: r.accessLevel,
      }));
  }

  private snapshotRef(
    state: ActiveShare,
    snapshotId: string,
    instanceId: string,
  ): SnapshotInstanceRef | undefined {
    const snapshot = state.snapshots.find((s) => s.id === snapshotId);
    const instance = snapshot?.instances.find((i) => i.shareInstanceId === instanceId);
    if (!snapshot || !instance) return undefined;
    return {
      snapshotId,
      snapshotInstanceId: instance.id,
      shareId: state.id,
      shareInstanceId: instanceId,
      sizeGiB: snapshot.size,
    };
  }

  /** Manila's replica_snapshots: available snapshots, their active and replica instances. */
  private snapshotPairs(
    state: ActiveShare,
    active: ShareInstanceState,
    replica: ShareInstanceState,
  ): ReplicaSnapshotPair[] {
    const replicaStateOf = (id: string) => state.instances.find((i) => i.id === id)?.replicaState;
    return state.snapshots.flatMap((snapshot) => {
      if (snapshotAggregateStatus(snapshot, replicaStateOf) !== 'available') return [];
      const onActive = this.snapshotRef(state, snapshot.id, active.id);
      const onReplica = this.snapshotRef(state, snapshot.id, replica.id);
      return onActive && onReplica
        ? [{ activeReplicaSnapshot: onActive, shareReplicaSnapshot: onReplica }]
        : [];
    });
  }

  private snapshotsOn(state: ActiveShare, replica: ShareInstanceState): SnapshotInstanceRef[] {
    return state.snapshots.flatMap((s) => {
      const ref = this.snapshotRef(state, s.id, replica.id);
      return ref ? [ref] : [];
    });
  }

  private locations(
    commandId: string,
    locations: readonly DriverExportLocation[],
  ): ExportLocation[] {
    return locations.map((l, index) => ({
      id: derivedId(commandId, `export-${index}`),
      path: l.path,
      preferred: l.preferred,
      isAdminOnly: l.isAdminOnly,
    }));
  }

  private messageOf(error: unknown, what: string): string {
    return driverFailureMessage(this.logger, error, what);
  }
}
