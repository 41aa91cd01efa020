import {
  COPYING_TASK_STATES,
  derivedId,
  isActiveShare,
  shareDecider,
  shareStream,
  type ActiveShare,
  type MigrationMethod,
  type MigrationState,
  type ShareCommand,
  type ShareInstanceState,
} from '#hawser/domain';
import {
  canMigrate,
  type MigrationCapableDriver,
  type ShareDriver,
  type ShareStatusResult,
} from '#hawser/drivers';
import { NodeDriverCalls, type NodeDriverCallParts } from './node-driver-calls.js';
import { driverFailureMessage, nodeCommandContext } from './node-outcome.js';
import type { OutcomeRecorder } from './outcome-recorder.js';
import { exportLocationsOf } from './share-from-snapshot-calls.js';

/** The migration as the destination's node sees it: both instances and its driver. */
interface MigrationAtNode {
  readonly state: ActiveShare;
  readonly migration: MigrationState;
  readonly source: ShareInstanceState;
  readonly destination: ShareInstanceState;
  readonly driver: ShareDriver & MigrationCapableDriver;
}

/**
 * The destination node's part of a share migration (Manila's share manager migration_start
 * and migration_driver_continue / the data service's copy):
 * 1. choose the way (driver-assisted if the driver can keep what was asked, else host-assisted
 *    if nothing forbids it, else fail with Manila's reason) and record it;
 * 2. claim `migration_start` on the destination and call the driver once per command id;
 * 3. poll the copy (progress from the bytes the destination holds) until the first phase ends.
 * A claim left open by a crash is run again: the driver answers a repeated start with the
 * destination as it stands, and a copy resumes.
 */
export class ShareMigrationCalls extends NodeDriverCalls {
  constructor(
    parts: NodeDriverCallParts,
    private readonly outcomes: OutcomeRecorder,
  ) {
    super(...parts);
  }

  async start(shareId: string, commandId: string, causationId: string): Promise<void> {
    let at = await this.load(shareId);
    if (!at) return;
    if (at.state.taskState === 'migration_in_progress') {
      const choice = await this.chooseMethod(at);
      const command: ShareCommand =
        typeof choice === 'string'
          ? { type: 'ChooseShareMigrationMethod', method: choice, now: this.clock() }
          : { type: 'FailShareMigration', message: choice.failure, now: this.clock() };
      await this.append(shareId, command, derivedId(commandId, 'method'), causationId);
      if (typeof choice !== 'string') return;
      at = await this.load(shareId);
      if (!at) return;
    }
    const claim = await this.commands.handle(
      shareDecider,
      shareStream(shareId),
      {
        type: 'StartDriverOperation',
        instanceId: at.destination.id,
        operation: 'migration_start',
        commandId,
        host: at.destination.host,
        now: this.clock(),
      },
      nodeCommandContext(derivedId(commandId, 'claim'), causationId),
      { retryOnConflict: 5 },
    );
    if (claim.events.length === 0) return;
    const claimed = await this.load(shareId);
    if (claimed) await this.run(claimed, commandId, causationId);
  }

  /** Settles a `migration_start` claimed before a crash: the driver's start is idempotent. */
  async recover(shareId: string, commandId: string): Promise<void> {
    const at = await this.load(shareId);
    if (at?.destination.pendingOperation?.commandId === commandId) {
      await this.run(at, commandId, commandId);
    }
  }

  /** One poll of a migration whose copy runs on this node. */
  async poll(shareId: string, instanceId: string): Promise<void> {
    const { revision } = await this.commands.load(shareDecider, shareStream(shareId));
    const at = await this.load(shareId);
    if (!at || at.destination.id !== instanceId) return;
    if (!at.state.taskState || !COPYING_TASK_STATES.has(at.state.taskState)) return;
    const pollId = derivedId(instanceId, `migration-poll:${revision}`);
    const result = await this.statusOf(at, pollId);
    await this.append(
      shareId,
      {
        type: 'RecordShareMigrationProgress',
        pollId,
        ...this.copyOutcome(result, pollId),
        now: this.clock(),
      },
      pollId,
      pollId,
    );
  }

  private async run(at: MigrationAtNode, commandId: string, causationId: string): Promise<void> {
    const method = at.migration.method ?? 'host';
    let result: ShareStatusResult;
    try {
      result = await at.driver.migrationStart({
        commandId,
        method,
        source: this.refOf(at.state, at.source),
        destination: this.refOf(at.state, at.destination),
      });
    } catch (error) {
      const message = driverFailureMessage(this.logger, error, 'migrate the share');
      result = { status: 'error', progress: 0, errorMessage: message };
    }
    await this.outcomes.record(at.state.id, commandId, causationId, {
      type: 'RecordShareMigrationCopy',
      commandId,
      ...this.copyOutcome(result, commandId),
      now: this.clock(),
    });
  }

  private copyOutcome(result: ShareStatusResult, commandId: string) {
    const status =
      result.status === 'available' ? 'done' : result.status === 'error' ? 'error' : 'copying';
    return {
      status,
      progress: Number.isFinite(result.progress) ? result.progress : 0,
      exportLocations: exportLocationsOf(commandId, result.exportLocations ?? []),
      message: result.errorMessage ?? null,
    } as const;
  }

  /**
   * Manila's choice: driver-assisted unless host-assisted is forced, when the driver is
   * compatible and keeps every property asked for; otherwise host-assisted, which keeps none
   * of them and takes no share with snapshots.
   */
  private async chooseMethod(at: MigrationAtNode): Promise<MigrationMethod | { failure: string }> {
    const { options } = at.migration;
    const { state } = at;
    if (!options.forceHostAssistedMigration && state.snapshots.length === 0) {
      const compatibility = await at.driver
        .migrationCheckCompatibility({
          commandId: derivedId(at.destination.id, 'compatibility'),
          source: this.refOf(state, at.source),
          destination: this.refOf(state, at.destination),
        })
        .catch(() => null);
      if (
        compatibility?.compatible &&
        (!options.writable || compatibility.writable) &&
        (!options.nondisruptive || compatibility.nondisruptive) &&
        (!options.preserveMetadata || compatibility.preserveMetadata) &&
        (!options.preserveSnapshots || compatibility.preserveSnapshots)
      ) {
        return 'driver';
      }
    }
    if (
      options.writable ||
      options.preserveMetadata ||
      options.nondisruptive ||
      options.preserveSnapshots
    ) {
      return {
        failure: `Migration for share ${state.id} could not be performed because host-assisted migration is not allowed when share must remain writable, preserve snapshots and/or file metadata or be performed nondisruptively.`,
      };
    }
    if (state.snapshots.length > 0) {
      return {
        failure: `Share ${state.id} must not have snapshots in order to perform a host-assisted migration.`,
      };
    }
    return 'host';
  }

  private async statusOf(at: MigrationAtNode, commandId: string): Promise<ShareStatusResult> {
    try {
      return await at.driver.getShareStatus({
        commandId,
        share: this.refOf(at.state, at.destination),
      });
    } catch (error) {
      const message = driverFailureMessage(this.logger, error, 'copy the share data');
      return { status: 'error', progress: 0, errorMessage: message };
    }
  }

  /** The migration if its destination is on this node's back ends. */
  private async load(shareId: string): Promise<MigrationAtNode | undefined> {
    const { state } = await this.commands.load(shareDecider, shareStream(shareId));
    if (!isActiveShare(state) || !state.migration) return undefined;
    const migration = state.migration;
    const source = state.instances.find((i) => i.id === migration.sourceInstanceId);
    const destination = state.instances.find((i) => i.id === migration.destinationInstanceId);
    const driver = destination && this.driverFor(destination.host);
    if (!source || !destination || !driver) return undefined;
    if (!canMigrate(driver)) {
      await this.append(
        shareId,
        {
          type: 'FailShareMigration',
          message: `The back end of ${destination.host} cannot take migrated shares.`,
          now: this.clock(),
        },
        derivedId(destination.id, 'not-migration-capable'),
        destination.id,
      );
      return undefined;
    }
    return { state, migration, source, destination, driver };
  }

  private async append(
    shareId: string,
    command: ShareCommand,
    commandId: string,
    causationId: string,
  ): Promise<void> {
    await this.commands.handle(
      shareDecider,
      shareStream(shareId),
      command,
      nodeCommandContext(commandId, causationId),
      { retryOnConflict: 5 },
    );
  }
}
