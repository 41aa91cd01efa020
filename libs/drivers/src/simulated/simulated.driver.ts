import { setTimeout as sleep } from 'node:timers/promises';
import { isDriverError } from '../contract/driver-error.js';
import type {
  BackendStatsReport,
  MigrationCompatibility,
  MigrationRequest,
  MigrationStartRequest,
  CreateReplicaRequest,
  CreateReplicaResult,
  CreateShareFromSnapshotRequest,
  CreateShareFromSnapshotResult,
  CreateShareRequest,
  CreateShareResult,
  CreateSnapshotResult,
  DeleteReplicaRequest,
  DeleteShareRequest,
  DeleteShareResult,
  DeleteSnapshotResult,
  DriverOperationName,
  DriverRequest,
  EnsureSharesRequest,
  EnsureSharesResult,
  GetPoolStatsRequest,
  GetShareStatusRequest,
  ManageShareRequest,
  ManageShareResult,
  ManageSnapshotRequest,
  ManageSnapshotResult,
  SnapshotAccessRequest,
  UnmanageShareRequest,
  PromoteReplicaRequest,
  PromoteReplicaResult,
  ReplicaState,
  ReplicatedSnapshotRequest,
  ReplicatedSnapshotResult,
  ResizeShareRequest,
  ShareDriver,
  ShareStatusResult,
  SnapshotInstanceUpdate,
  SnapshotRequest,
  UpdateAccessRequest,
  UpdateAccessResult,
  UpdateReplicaStateRequest,
  UpdateReplicaStateResult,
  UpdateReplicatedSnapshotRequest,
} from '../contract/share-driver.js';
import type { FailureRule, SimulatedBackendConfig } from '../config/backend-config.js';
import { buildPoolStats, type DriverTraits } from '../common/pool-capabilities.js';
import { FailureInjector } from './failure-injector.js';
import {
  OperationJournal,
  collectResourceIds,
  type JournalEntry,
  type JournalOutcome,
} from './operation-journal.js';
import { SimulatedStorage, type SimulatedShareView } from './simulated-storage.js';

const TRAITS: DriverTraits = {
  vendorName: 'Hawser',
  driverVersion: '1.0',
  storageProtocol: 'NFS_CIFS',
  thinProvisioningDefault: false,
  revertToSnapshotSupport: true,
  mountSnapshotSupport: false,
};

/** Operations that change state, keyed by name, so a journal can be replayed onto storage. */
type StorageOperation = Exclude<DriverOperationName, 'getPoolStats'>;

/** Knob calls are journalled like operations so a reload reproduces them too. */
type KnobOperation = 'simulate:setUsedGiB' | 'simulate:setReplicaState';

/**
 * Completed calls remembered to answer a repeated command id: a caller repeats one when it
 * retries the same call (a reaction's retry, a node's restart settling a claim), soon after the
 * first or with nothing called in between. Older ones are forgotten, oldest first, so memory
 * stays bounded however many calls a long-running back end answers.
 */
export const REMEMBERED_CALLS = 10_000;

interface CompletedCall {
  readonly operation: string;
  readonly result: unknown;
}

/**
 * An in-memory back end with configurable latency, seeded failure injection and an optional
 * journal. A repeated command id (one of the last REMEMBERED_CALLS) answers the first call's
 * result without running again, and the journal marks it `duplicate`, so tests can prove a caller's at-most-once behaviour.
 */
export class SimulatedShareDriver implements ShareDriver {
  readonly backend: string;
  readonly availabilityZone: string;
  readonly poolNames: readonly string[];

  private readonly storage: SimulatedStorage;
  private readonly failures: FailureInjector;
  private readonly journal: OperationJournal | null;
  private readonly completed = new Map<string, CompletedCall>();
  private sequence = 0;
  private initialized = false;

  constructor(private readonly config: SimulatedBackendConfig) {
    this.backend = config.name;
    this.availabilityZone = config.availabilityZone;
    this.poolNames = config.pools.map((pool) => pool.name);
    this.storage = new SimulatedStorage(config);
    this.failures = new FailureInjector(config.options?.failures ?? [], config.options?.seed ?? 1);
    this.journal = config.options?.journalFile
      ? new OperationJournal(config.options.journalFile)
      : null;
  }

  async initialize(): Promise<void> {
    if (this.initialized) return;
    const file = this.config.options?.journalFile;
    if (file && this.journal) {
      for (const entry of OperationJournal.read(file)) this.replay(entry);
      this.journal.open();
    }
    this.initialized = true;
  }

  async close(): Promise<void> {
    this.journal?.close();
    this.initialized = false;
  }

  /** Adds a failure rule at run time (same semantics as the `failures` option). */
  injectFailure(rule: FailureRule): void {
    this.failures.add(rule);
  }

  clearFailures(): void {
    this.failures.clear();
  }

  inspectShare(instanceId: string): SimulatedShareView | undefined {
    return this.storage.view(instanceId);
  }

  hasSnapshot(snapshotInstanceId: string): boolean {
    return this.storage.hasSnapshot(snapshotInstanceId);
  }

  setUsedGiB(instanceId: string, usedGiB: number): void {
    this.applyKnob('simulate:setUsedGiB', { instanceId, usedGiB });
  }

  setReplicaState(instanceId: string, replicaState: ReplicaState): void {
    this.applyKnob('simulate:setReplicaState', { instanceId, replicaState });
  }

  createShare(request: CreateShareRequest): Promise<CreateShareResult> {
    return this.run('createShare', request);
  }

  deleteShare(request: DeleteShareRequest): Promise<DeleteShareResult> {
    return this.run('deleteShare', request);
  }

  createShareFromSnapshot(
    request: CreateShareFromSnapshotRequest,
  ): Promise<CreateShareFromSnapshotResult> {
    return this.run('createShareFromSnapshot', request);
  }

  /** The simulated back ends move any share themselves; snapshots are not carried. */
  migrationCheckCompatibility(_request: MigrationRequest): Promise<MigrationCompatibility> {
    return Promise.resolve({
      compatible: true,
      writable: true,
      nondisruptive: false,
      preserveMetadata: true,
      preserveSnapshots: false,
    });
  }

  /** The destination is created at once, holding the (simulated) data. */
  async migrationStart({
    commandId,
    destination,
  }: MigrationStartRequest): Promise<ShareStatusResult> {
    const { exportLocations } = await this.createShare({ commandId, share: destination });
    return { status: 'available', progress: 100, exportLocations };
  }

  getShareStatus(request: GetShareStatusRequest): Promise<ShareStatusResult> {
    return this.run('getShareStatus', request);
  }

  extendShare(request: ResizeShareRequest): Promise<void> {
    return this.run('extendShare', request);
  }

  shrinkShare(request: ResizeShareRequest): Promise<void> {
    return this.run('shrinkShare', request);
  }

  createSnapshot(request: SnapshotRequest): Promise<CreateSnapshotResult> {
    return this.run('createSnapshot', request);
  }

  deleteSnapshot(request: SnapshotRequest): Promise<DeleteSnapshotResult> {
    return this.run('deleteSnapshot', request);
  }

  revertToSnapshot(request: SnapshotRequest): Promise<void> {
    return this.run('revertToSnapshot', request);
  }

  manageExisting(request: ManageShareRequest): Promise<ManageShareResult> {
    return this.run('manageExisting', request);
  }

  unmanage(request: UnmanageShareRequest): Promise<void> {
    return this.run('unmanage', request);
  }

  manageExistingSnapshot(request: ManageSnapshotRequest): Promise<ManageSnapshotResult> {
    return this.run('manageExistingSnapshot', request);
  }

  unmanageSnapshot(request: SnapshotRequest): Promise<void> {
    return this.run('unmanageSnapshot', request);
  }

  snapshotUpdateAccess(request: SnapshotAccessRequest): Promise<void> {
    return this.run('snapshotUpdateAccess', request);
  }

  updateAccess(request: UpdateAccessRequest): Promise<UpdateAccessResult> {
    return this.run('updateAccess', request);
  }

  ensureShares(request: EnsureSharesRequest): Promise<EnsureSharesResult> {
    return this.run('ensureShares', request);
  }

  createReplica(request: CreateReplicaRequest): Promise<CreateReplicaResult> {
    return this.run('createReplica', request);
  }

  deleteReplica(request: DeleteReplicaRequest): Promise<void> {
    return this.run('deleteReplica', request);
  }

  promoteReplica(request: PromoteReplicaRequest): Promise<PromoteReplicaResult> {
    return this.run('promoteReplica', request);
  }

  updateReplicaState(request: UpdateReplicaStateRequest): Promise<UpdateReplicaStateResult> {
    return this.run('updateReplicaState', request);
  }

  createReplicatedSnapshot(request: ReplicatedSnapshotRequest): Promise<ReplicatedSnapshotResult> {
    return this.run('createReplicatedSnapshot', request);
  }

  deleteReplicatedSnapshot(request: ReplicatedSnapshotRequest): Promise<ReplicatedSnapshotResult> {
    return this.run('deleteReplicatedSnapshot', request);
  }

  updateReplicatedSnapshot(
    request: UpdateReplicatedSnapshotRequest,
  ): Promise<SnapshotInstanceUpdate> {
    return this.run('updateReplicatedSnapshot', request);
  }

  async getPoolStats(request: GetPoolStatsRequest): Promise<BackendStatsReport> {
    await this.delay('getPoolStats');
    this.checkFailure('getPoolStats', request);
    const now = new Date();
    const thin = this.config.options?.thinProvisioning ?? TRAITS.thinProvisioningDefault;
    const pools = [...this.storage.pools.entries()].map(([poolName, usage]) =>
      buildPoolStats(
        this.config,
        TRAITS,
        {
          poolName,
          totalCapacityGb: usage.totalGiB,
          // Thin pools hold no data in the simulation; thick pools lose what they allocate.
          freeCapacityGb: thin ? usage.totalGiB : usage.totalGiB - usage.allocatedGiB,
          allocatedCapacityGb: usage.allocatedGiB,
          provisionedCapacityGb: usage.allocatedGiB,
        },
        now,
      ),
    );
    this.record('getPoolStats', request, 'ok');
    return { backend: this.backend, availabilityZone: this.availabilityZone, pools };
  }

  private async run<R>(operation: StorageOperation, request: DriverRequest): Promise<R> {
    this.assertInitialized();
    await this.delay(operation);
    const previous = this.completed.get(request.commandId);
    if (previous && previous.operation === operation) {
      this.record(operation, request, 'duplicate');
      return previous.result as R;
    }
    this.checkFailure(operation, request);
    let result: unknown;
    try {
      result = this.apply(operation, request);
    } catch (error) {
      if (isDriverError(error)) this.record(operation, request, 'failed', error.toData());
      throw error;
    }
    this.remember(request.commandId, { operation, result });
    this.record(operation, request, 'ok');
    return result as R;
  }

  private apply(operation: StorageOperation, request: DriverRequest): unknown {
    const method = this.storage[operation] as (this: SimulatedStorage, r: DriverRequest) => unknown;
    return method.call(this.storage, request);
  }

  private applyKnob(operation: KnobOperation, request: Record<string, unknown>): void {
    this.assertInitialized();
    this.applyKnobToStorage(operation, request);
    // Knobs are not commands; a unique id keeps "one ok entry per command id" checks simple.
    this.record(operation, { commandId: `${operation}#${this.sequence + 1}`, ...request }, 'ok');
  }

  private applyKnobToStorage(operation: KnobOperation, request: Record<string, unknown>): void {
    if (operation === 'simulate:setUsedGiB') {
      this.storage.setUsedGiB(String(request.instanceId), Number(request.usedGiB));
    } else {
      this.storage.setReplicaState(
        String(request.instanceId),
        request.replicaState as ReplicaState,
      );
    }
  }

  /** Rebuilds state from one journal line: only calls that changed state are applied. */
  private replay(entry: JournalEntry): void {
    this.sequence = Math.max(this.sequence, entry.seq);
    if (entry.outcome !== 'ok' || entry.operation === 'getPoolStats') return;
    const request = entry.request as DriverRequest & Record<string, unknown>;
    if (entry.operation.startsWith('simulate:')) {
      this.applyKnobToStorage(entry.operation as KnobOperation, request);
      return;
    }
    const operation = entry.operation as StorageOperation;
    const result = this.apply(operation, request);
    this.remember(request.commandId, { operation, result });
  }

  private remember(commandId: string, call: CompletedCall): void {
    this.completed.set(commandId, call);
    if (this.completed.size > REMEMBERED_CALLS) {
      this.completed.delete(this.completed.keys().next().value as string);
    }
  }

  private checkFailure(operation: DriverOperationName, request: DriverRequest): void {
    const failure = this.failures.check(operation, request.commandId);
    if (failure) {
      this.record(operation, request, 'failed', failure.toData());
      throw failure;
    }
  }

  private async delay(operation: DriverOperationName): Promise<void> {
    const options = this.config.options;
    const latency = options?.operationLatencyMs?.[operation] ?? options?.latencyMs ?? 0;
    if (latency > 0) await sleep(latency);
  }

  private record(
    operation: string,
    request: DriverRequest,
    outcome: JournalOutcome,
    error?: JournalEntry['error'],
  ): void {
    this.sequence += 1;
    if (!this.journal) return;
    this.journal.append({
      seq: this.sequence,
      time: new Date().toISOString(),
      backend: this.backend,
      operation,
      commandId: request.commandId,
      ids: collectResourceIds(request),
      outcome,
      request,
      ...(error ? { error } : {}),
    });
  }

  private assertInitialized(): void {
    if (!this.initialized) throw new Error(`driver ${this.backend} is not initialized`);
  }
}
