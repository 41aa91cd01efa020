import {
  COPYING_TASK_STATES,
  derivedId,
  isActiveShare,
  migrationAccessStep,
  shareDecider,
  shareStream,
  type ActiveShare,
  type MigrationMethod,
  type MigrationState,
  type ShareCommand,
  type ShareInstanceState,
} from '#hawser/domain';
import { faultInjectionPoint } from '#hawser/application';
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

  /**
   * Chooses the method once, then claims the driver's start when it is due (after the source's
   * rules went read-only, if they had to); called again when they have.
   */
  async start(shareId: string, causationId: string): Promise<void> {
    let at = await this.load(shareId);
    if (!at) return;
    if (at.state.taskState === 'migration_in_progress') {
      const choice = await this.chooseMethod(at);
      const command: ShareCommand =
        'failure' in choice
          ? { type: 'FailShareMigration', message: choice.failure, now: this.clock() }
          : { type: 'ChooseShareMigrationMethod', ...choice, now: this.clock() };
      await this.append(shareId, command, derivedId(at.destination.id, 'method'), causationId);
      if ('failure' in choice) return;
      at = await this.load(shareId);
      if (!at) return;
    }
    // One claim id per migration: whichever step finds the start due first claims it.
    const commandId = derivedId(at.destination.id, 'migration_start');
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

  /**
   * After an access step of a migration (rules cast read-only, updated on the source, or given
   * back their levels): the instances on this node whose rules are queued, and whether the copy
   * may start. A cast the source's node could not apply fails the migration, as Manila's wait
   * for that access update does.
   */
  async accessSteps(
    shareId: string,
    causationId: string,
  ): Promise<{ update: string[]; start: boolean }> {
    const { state } = await this.commands.load(shareDecider, shareStream(shareId));
    const steps = { update: [] as string[], start: false };
    if (!isActiveShare(state)) return steps;
    for (const instance of state.instances) {
      const step = migrationAccessStep(state, instance);
      if (step === 'update' && this.driverFor(instance.host)) steps.update.push(instance.id);
      if (step === 'start') steps.start = true;
      if (step === 'fail') {
        const message = `Access rules of share instance ${instance.id} could not be cast to read-only for the migration of share ${shareId}.`;
        const command: ShareCommand = { type: 'FailShareMigration', message, now: this.clock() };
        await this.append(shareId, command, derivedId(causationId, 'cast-failed'), causationId);
      }
    }
    return steps;
  }

  /** Whether the share is being migrated. */
  async underway(shareId: string): Promise<boolean> {
    const { state } = await this.commands.load(shareDecider, shareStream(shareId));
    return isActiveShare(state) && state.migration !== null && state.migration !== undefined;
  }

  /** One poll of a migration whose copy runs on this node. */
  async poll(shareId: string, instanceId: string): Promise<void> {
    const { revision } = await this.commands.load(shareDecider, shareStream(shareId));
    const at = await this.load(shareId);
    if (!at || at.destination.id !== instanceId) return;
    if (!at.state.taskState || !COPYING_TASK_STATES.has(at.state.taskState)) return;
    const pollId = derivedId(instanceId, `migration-poll:${revision}`);
    const result = await this.statusOf(at, pollId);
    const outcome = this.copyOutcome(result, pollId);
    await this.append(
      shareId,
      { type: 'RecordShareMigrationProgress', pollId, ...outcome, now: this.clock() },
      pollId,
      pollId,
    );
    // Crash tests stop the process here: part of the data copied, the rest still to come.
    if (outcome.status === 'copying' && outcome.progress > 0) {
      faultInjectionPoint('after-progress-recorded:migration');
    }
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
   * of them and takes no share with snapshots. The source's rules go read-only for a copy that
   * cannot keep the share writable (every host-assisted one), as Manila's share manager does.
   */
  private async chooseMethod(
    at: MigrationAtNode,
  ): Promise<{ method: MigrationMethod; castRulesToReadonly: boolean } | { failure: string }> {
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
        return { method: 'driver', castRulesToReadonly: !compatibility.writable };
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
    return { method: 'host', castRulesToReadonly: true };
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
