import { Logger } from '@nestjs/common';
import type { CommandHandler } from '#hawser/application';
import {
  derivedId,
  shareDecider,
  shareStream,
  type DriverOperation,
  type ShareCommand,
  type ShareInstanceState,
  type ActiveShare,
  activeShareOrUndefined,
  instancesOf,
  isActiveShare,
} from '#hawser/domain';
import {
  type ExportLocation as DriverExportLocation,
  type ShareDriver,
  type ShareInstanceRef,
  type ShareProtocol,
} from '#hawser/drivers';

import {
  createFromSnapshotRequest,
  CreatingFromSnapshotPoller,
  exportLocationsOf,
} from './share-from-snapshot-calls.js';
import { driverFailureMessage, nodeCommandContext } from './node-outcome.js';
import { OutcomeRecorder } from './outcome-recorder.js';
import { ShareMaintenanceCalls } from './share-maintenance-calls.js';
import { ReplicatedSnapshotCalls } from './replicated-snapshot-calls.js';
import { ShareReplicaCalls } from './share-replica-calls.js';
import type { NodeDriverCallParts } from './node-driver-calls.js';
import { ShareMigrationCalls } from './share-migration-calls.js';

const backendOf = (host: string): string => host.split('#')[0] ?? host;

/** What a node claims: an operation on one instance of a share, for a command. */
type ClaimArgs = [
  shareId: string,
  instanceId: string,
  operation: DriverOperation,
  commandId: string,
  causationId: string,
  snapshot?: SnapshotTarget,
];

/** Operations settled through ensure_shares; the others are simply run again on recovery. */
const SHARE_LIFECYCLE: ReadonlySet<DriverOperation> = new Set<DriverOperation>([
  'create_share',
  'create_share_from_snapshot',
  'delete_share',
]);

export interface SnapshotTarget {
  readonly snapshotId: string;
  readonly snapshotInstanceId: string;
}

/**
 * Runs driver operations for the back ends of one share node, at most once per command id:
 * the node first appends that it claims the operation, and calls the driver only if that append
 * decided something. An outcome whose append fails (a full disk) is kept and appended when the
 * reaction is retried (`OutcomeRecorder`). A claim left without an outcome by a crash is settled
 * by `recover`, which asks the driver what exists (ensure_shares) instead of calling blindly again.
 */
export class ShareDriverOperations {
  private readonly logger = new Logger('share-node');

  private readonly maintenance: ShareMaintenanceCalls;
  private readonly poller: CreatingFromSnapshotPoller;
  private readonly outcomes: OutcomeRecorder;

  readonly replicas: ShareReplicaCalls;
  readonly replicatedSnapshots: ReplicatedSnapshotCalls;
  readonly migrations: ShareMigrationCalls;

  constructor(
    private readonly commands: CommandHandler,
    private readonly drivers: ReadonlyMap<string, ShareDriver>,
    private readonly clock: () => string = () => new Date().toISOString(),
  ) {
    this.outcomes = new OutcomeRecorder(commands);
    const parts: NodeDriverCallParts = [
      commands,
      (host) => this.driverFor(host),
      clock,
      (state, instance) => this.refOf(state, instance),
    ];
    this.poller = new CreatingFromSnapshotPoller(...parts);
    this.replicas = new ShareReplicaCalls(...parts);
    this.replicatedSnapshots = new ReplicatedSnapshotCalls(...parts);
    this.migrations = new ShareMigrationCalls(parts, this.outcomes);
    this.maintenance = new ShareMaintenanceCalls(
      parts,
      this.outcomes,
      this.replicas,
      this.replicatedSnapshots,
    );
  }

  driverFor(host: string): ShareDriver | undefined {
    return this.drivers.get(backendOf(host));
  }

  /** create_share, or create_share_from_snapshot for a share that names a snapshot source. */
  async create(shareId: string, instanceId: string, commandId: string, causationId: string) {
    const { state } = await this.load(shareId);
    const operation = activeShareOrUndefined(state)?.snapshotSource
      ? 'create_share_from_snapshot'
      : 'create_share';
    const claimed = await this.claim(shareId, instanceId, operation, commandId, causationId);
    if (claimed) await this.runCreate(claimed.state, claimed.instance, commandId, causationId);
  }

  /** One poll of an instance in `creating_from_snapshot` (the node's periodic task). */
  pollCreatingFromSnapshot(shareId: string, instanceId: string): Promise<void> {
    return this.poller.poll(shareId, instanceId);
  }

  async remove(shareId: string, instanceId: string, commandId: string, causationId: string) {
    const claimed = await this.claim(shareId, instanceId, 'delete_share', commandId, causationId);
    if (claimed) await this.runDelete(claimed.state, claimed.instance, commandId, causationId);
  }

  /** The share as the node decides on it now. */
  load(shareId: string) {
    return this.commands.load(shareDecider, shareStream(shareId));
  }

  /** Takes a snapshot instance on the node's share instance (reference 2.4). */
  async createSnapshot(
    shareId: string,
    target: SnapshotTarget,
    shareInstanceId: string,
    commandId: string,
    causationId: string,
  ) {
    // A replica still being built is given its snapshots once it is (the replica refresh).
    const { state } = await this.load(shareId);
    const instance = instancesOf(state).find((i) => i.id === shareInstanceId);
    if (instance?.replicaState && instance.status === 'creating') return;
    await this.claimAndMaintain(
      shareId,
      shareInstanceId,
      'create_snapshot',
      commandId,
      causationId,
      target,
    );
  }

  async deleteSnapshot(
    shareId: string,
    target: SnapshotTarget,
    shareInstanceId: string,
    commandId: string,
    causationId: string,
  ) {
    await this.claimAndMaintain(
      shareId,
      shareInstanceId,
      'delete_snapshot',
      commandId,
      causationId,
      target,
    );
  }

  /**
   * Creates or deletes every instance of a snapshot of a share with replicas, from the node of
   * its active replica (reference 5.8): claimed on the active replica, one driver call.
   */
  async runReplicatedSnapshotOperation(
    shareId: string,
    target: SnapshotTarget,
    activeInstanceId: string,
    operation: 'create_replicated_snapshot' | 'delete_replicated_snapshot',
    commandId: string,
    causationId: string,
  ) {
    await this.claimAndMaintain(
      shareId,
      activeInstanceId,
      operation,
      commandId,
      causationId,
      target,
    );
  }

  /** Applies the rule changes queued on one instance (reference 2.5 step 3). */
  async updateAccess(shareId: string, instanceId: string, commandId: string, causationId: string) {
    await this.claimAndMaintain(shareId, instanceId, 'update_access', commandId, causationId);
  }

  async resize(
    shareId: string,
    instanceId: string,
    direction: 'extend' | 'shrink',
    commandId: string,
    causationId: string,
  ) {
    const operation = direction === 'extend' ? 'extend_share' : 'shrink_share';
    await this.claimAndMaintain(shareId, instanceId, operation, commandId, causationId);
  }

  /** Restores the instance (the active replica) to its snapshot instance (2.27). */
  async revertToSnapshot(
    shareId: string,
    target: SnapshotTarget,
    instanceId: string,
    commandId: string,
    causationId: string,
  ) {
    await this.claimAndMaintain(
      shareId,
      instanceId,
      'revert_to_snapshot',
      commandId,
      causationId,
      target,
    );
  }

  /** Adopts a share on the pool of the instance, or lets it go (manage / unmanage). */
  async runManageOperation(
    shareId: string,
    instanceId: string,
    operation: 'manage_share' | 'unmanage_share',
    commandId: string,
    causationId: string,
  ) {
    await this.claimAndMaintain(shareId, instanceId, operation, commandId, causationId);
  }

  /**
   * Adopts a snapshot of the instance or lets it go (snapshot manage / unmanage), or enforces a
   * mountable snapshot's read-only rules (2.32).
   */
  async runSnapshotOperation(
    shareId: string,
    target: SnapshotTarget,
    instanceId: string,
    operation: 'manage_snapshot' | 'unmanage_snapshot' | 'update_snapshot_access',
    commandId: string,
    causationId: string,
  ) {
    await this.claimAndMaintain(shareId, instanceId, operation, commandId, causationId, target);
  }

  /** Creates, deletes or promotes a replica held by this node (reference 5). */
  async runReplicaOperation(
    shareId: string,
    replicaId: string,
    operation: 'create_replica' | 'delete_replica' | 'promote_replica',
    commandId: string,
    causationId: string,
  ) {
    await this.claimAndMaintain(shareId, replicaId, operation, commandId, causationId);
  }

  /** Settles an operation claimed before a crash, asking the driver what it has. */
  async recover(shareId: string, instanceId: string): Promise<void> {
    const { state } = await this.commands.load(shareDecider, shareStream(shareId));
    if (!isActiveShare(state)) return;
    const instance = state.instances.find((i) => i.id === instanceId);
    const pending = instance?.pendingOperation;
    const driver = instance && this.driverFor(instance.host);
    if (!instance || !pending || !driver) return;
    const causationId = pending.commandId;
    if (pending.operation === 'migration_start') {
      return this.migrations.recover(state.id, pending.commandId);
    }
    if (!SHARE_LIFECYCLE.has(pending.operation)) {
      // Drivers make a repeated call with the same command id harmless: run it again.
      this.logger.log(
        `recovering ${pending.operation} of instance ${instance.id}: running it again`,
      );
      return this.maintenance.run(state, instance, pending.commandId, causationId);
    }
    const ensured = await driver.ensureShares({
      commandId: derivedId(pending.commandId, 'ensure'),
      shares: [this.refOf(state, instance)],
    });
    const outcome = ensured.shares.find((s) => s.instanceId === instance.id);
    const exists = outcome?.outcome === 'present' || outcome?.outcome === 'completed';
    this.logger.log(
      `recovering ${pending.operation} of instance ${instance.id}: driver reports ${outcome?.outcome ?? 'nothing'}`,
    );
    const settle = (command: ShareCommand) =>
      this.outcomes.record(state.id, pending.commandId, causationId, command);
    if (pending.operation === 'delete_share') {
      if (exists) return this.runDelete(state, instance, pending.commandId, causationId);
      return settle(this.completedDeletion(instance, pending.commandId));
    }
    if (outcome?.status === 'creating_from_snapshot') {
      return settle(this.deferredCreation(instance, pending.commandId));
    }
    if (exists && outcome?.status === 'available') {
      const locations = outcome.exportLocations ?? [];
      return settle(this.completedCreation(instance, pending.commandId, locations));
    }
    // The driver has no trace of the call: it never ran, so running it now is its first time.
    return this.runCreate(state, instance, pending.commandId, causationId);
  }

  private async claim(
    ...[shareId, instanceId, operation, commandId, causationId, snapshot]: ClaimArgs
  ): Promise<{ state: ActiveShare; instance: ShareInstanceState } | undefined> {
    // Handled again after the driver acted but its outcome could not be appended: record it.
    if (await this.outcomes.recordUnrecorded(commandId)) return undefined;
    const { state } = await this.commands.load(shareDecider, shareStream(shareId));
    if (!isActiveShare(state)) return undefined;
    const instance = state.instances.find((i) => i.id === instanceId);
    if (!instance || !this.driverFor(instance.host)) return undefined;
    const result = await this.commands.handle(
      shareDecider,
      shareStream(shareId),
      {
        type: 'StartDriverOperation',
        instanceId,
        operation,
        commandId,
        host: instance.host,
        ...snapshot,
        now: this.clock(),
      },
      nodeCommandContext(derivedId(commandId, 'claim'), causationId),
      { retryOnConflict: 5 },
    );
    if (result.events.length === 0) return undefined;
    const after = activeShareOrUndefined(result.state);
    const claimed = after?.instances.find((i) => i.id === instanceId);
    return after && claimed && { state: after, instance: claimed };
  }

  /** Claims a maintenance operation on the instance and, once claimed, runs its driver call. */
  private async claimAndMaintain(...args: ClaimArgs) {
    const [, , , commandId, causationId] = args;
    const claimed = await this.claim(...args);
    if (claimed) {
      await this.maintenance.run(claimed.state, claimed.instance, commandId, causationId);
    }
  }

  private async runCreate(
    state: ActiveShare,
    instance: ShareInstanceState,
    commandId: string,
    causationId: string,
  ) {
    const outcome = await this.createOutcome(state, instance, commandId);
    await this.outcomes.record(state.id, commandId, causationId, outcome);
  }

  /** Calls the driver to create the instance; the command that records what it answered. */
  private async createOutcome(
    state: ActiveShare,
    instance: ShareInstanceState,
    commandId: string,
  ): Promise<ShareCommand> {
    const driver = this.driverFor(instance.host) as ShareDriver;
    const share = this.refOf(state, instance);
    try {
      if (state.snapshotSource) {
        const request = createFromSnapshotRequest(commandId, share, state.snapshotSource);
        const result = await driver.createShareFromSnapshot(request);
        if (result.status === 'creating_from_snapshot') {
          return this.deferredCreation(instance, commandId);
        }
        return this.completedCreation(instance, commandId, result.exportLocations ?? []);
      }
      const result = await driver.createShare({ commandId, share });
      return this.completedCreation(instance, commandId, result.exportLocations);
    } catch (error) {
      return this.failure(instance, 'create', commandId, error);
    }
  }

  /** The driver goes on in the background: the periodic poll follows the instance from here. */
  private deferredCreation(instance: ShareInstanceState, commandId: string): ShareCommand {
    return {
      type: 'RecordShareCreationDeferred',
      instanceId: instance.id,
      commandId,
      now: this.clock(),
    };
  }

  private completedCreation(
    instance: ShareInstanceState,
    commandId: string,
    locations: readonly DriverExportLocation[],
  ): ShareCommand {
    return {
      type: 'CompleteShareInstanceCreation',
      instanceId: instance.id,
      commandId,
      exportLocations: exportLocationsOf(commandId, locations),
      now: this.clock(),
    };
  }

  private async runDelete(
    state: ActiveShare,
    instance: ShareInstanceState,
    commandId: string,
    causationId: string,
  ) {
    const driver = this.driverFor(instance.host) as ShareDriver;
    let outcome: ShareCommand;
    try {
      await driver.deleteShare({ commandId, share: this.refOf(state, instance) });
      outcome = this.completedDeletion(instance, commandId);
    } catch (error) {
      outcome = this.failure(instance, 'delete', commandId, error);
    }
    await this.outcomes.record(state.id, commandId, causationId, outcome);
  }

  private completedDeletion(instance: ShareInstanceState, commandId: string): ShareCommand {
    return {
      type: 'CompleteShareInstanceDeletion',
      instanceId: instance.id,
      commandId,
      now: this.clock(),
    };
  }

  private failure(
    instance: ShareInstanceState,
    what: 'create' | 'delete',
    commandId: string,
    error: unknown,
  ): ShareCommand {
    const message = driverFailureMessage(this.logger, error, `${what} the share`);
    const type = what === 'create' ? 'FailShareInstanceCreation' : 'FailShareInstanceDeletion';
    return { type, instanceId: instance.id, commandId, message, now: this.clock() };
  }

  refOf(state: ActiveShare, instance: ShareInstanceState): ShareInstanceRef {
    return {
      shareId: state.id,
      instanceId: instance.id,
      sizeGiB: state.size,
      protocol: state.shareProto as ShareProtocol,
      host: instance.host,
      replicaState: instance.replicaState,
    };
  }
}
