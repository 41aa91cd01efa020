import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CommandHandler } from '#hawser/application';
import {
  capabilitiesOf,
  SHARE_STREAM_PREFIX,
  shareDecider,
  shareStream,
  type ActiveShare,
  activeShareOf,
} from '#hawser/domain';
import {
  SimulatedShareDriver,
  type BackendStatsReport,
  type SimulatedBackendConfig,
} from '#hawser/drivers';
import { SqliteEventStore, type RecordedEvent } from '#hawser/eventstore';
import {
  replicaSchedulingProcessManager,
  shareSchedulingProcessManager,
  type ProcessManager,
} from '#hawser/process-managers';
import { FilterScheduler, PoolStateRegistry } from '#hawser/scheduler';
import {
  PlacementAdmission,
  replicaNodeOperationsProcessManager,
  ShareDriverOperations,
  shareNodeOperationsProcessManager,
} from '#hawser/share-node';
import { FilterSchedulerPlacement, SCHEDULER_FILTERS } from '../filter-scheduler.placement.js';

/** One scheduler process: its own registry, fed by the reports it was given and the log. */
interface Scheduler {
  readonly workflows: readonly ProcessManager[];
  /** Placements recorded by the other scheduler, not heard of yet. */
  readonly unheard: RecordedEvent[];
}

const PLACEMENTS = new Set(['ShareScheduled', 'ReplicaScheduled']);

/** Hands the event to those of `workflows` that react to its type. */
const deliver = async (workflows: readonly ProcessManager[], event: RecordedEvent) => {
  for (const workflow of workflows) {
    const types = workflow.filter?.eventTypes;
    if (!types || types.includes(event.type)) await workflow.handle(event);
  }
};

export interface ShareRequest {
  readonly id: string;
  readonly sizeGiB: number;
  readonly typeName: string;
  readonly extraSpecs: Readonly<Record<string, string>>;
  readonly availabilityZone?: string;
}

/**
 * Two scheduler processes over one log and one share node, all real: SQLite log, command
 * handler, both schedulers' share and replica workflows with their own pool registries, the
 * node's workflows with its placement check, the simulated driver enforcing capacity. Requests
 * are dealt alternately to the schedulers (competing consumers), and each hears of the other's
 * placements only at the end of a round (the log's propagation delay): within a round both fill
 * the same emptiest pools. The node hands back what no longer fits; the owner places it again.
 */
export class CompetingSchedulers {
  readonly commands: CommandHandler;
  readonly admission: PlacementAdmission;
  private readonly node: readonly ProcessManager[];
  private schedulers: Scheduler[] = [];
  /** Which scheduler places a share's instance or a replica, by share or replica id. */
  private readonly owners = new Map<string, number>();
  private position = 0;

  private constructor(
    private readonly dir: string,
    readonly events: SqliteEventStore,
    readonly drivers: readonly SimulatedShareDriver[],
  ) {
    this.commands = new CommandHandler(events);
    this.admission = new PlacementAdmission(this.commands);
    const operations = new ShareDriverOperations(
      this.commands,
      new Map(drivers.map((d) => [d.backend, d])),
    );
    this.node = [
      shareNodeOperationsProcessManager('node1', operations, this.admission),
      replicaNodeOperationsProcessManager('node1', operations, this.admission),
    ];
  }

  static async start(backends: readonly SimulatedBackendConfig[]): Promise<CompetingSchedulers> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-two-schedulers-'));
    const events = new SqliteEventStore({ file: path.join(dir, 'events.sqlite') });
    const drivers = backends.map((config) => new SimulatedShareDriver(config));
    for (const driver of drivers) await driver.initialize();
    return new CompetingSchedulers(dir, events, drivers);
  }

  async close(): Promise<void> {
    for (const driver of this.drivers) await driver.close();
    await this.events.close();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  /** Every back end's report, measured now. */
  stats(): Promise<BackendStatsReport[]> {
    return Promise.all(
      this.drivers.map((d) => d.getPoolStats({ commandId: `stats-${Date.now()}` })),
    );
  }

  /** The node takes these reports as its pools' figures. */
  nodeObserves(reports: readonly BackendStatsReport[]): void {
    for (const report of reports) this.admission.observe(report, Date.now());
  }

  /** Starts both schedulers, each knowing the pools from these reports only. */
  startSchedulers(reports: readonly BackendStatsReport[]): void {
    this.schedulers = [0, 1].map(() => {
      const registry = new PoolStateRegistry({ serviceDownTimeMs: 3_600_000 });
      for (const report of reports) {
        registry.report(
          report.backend,
          report.pools.map((p) => p.capabilities),
          Date.parse(report.pools[0]?.capabilities.timestamp ?? ''),
          report.availabilityZone,
        );
      }
      const placement = new FilterSchedulerPlacement(
        registry,
        new FilterScheduler(registry, { filters: SCHEDULER_FILTERS }),
      );
      return {
        workflows: [
          shareSchedulingProcessManager(this.commands, placement),
          replicaSchedulingProcessManager(this.commands, placement),
        ],
        unheard: [],
      };
    });
  }

  async requestShare(request: ShareRequest): Promise<void> {
    this.assign(request.id);
    await this.commands.handle(
      shareDecider,
      shareStream(request.id),
      {
        type: 'RequestShare',
        shareId: request.id,
        instanceId: `${request.id}-i`,
        projectId: 'p1',
        userId: 'u1',
        name: null,
        description: null,
        size: request.sizeGiB,
        shareProto: 'NFS',
        shareType: { id: request.typeName, name: request.typeName, extraSpecs: request.extraSpecs },
        capabilities: capabilitiesOf(request.extraSpecs),
        availabilityZone: request.availabilityZone ?? null,
        metadata: {},
        isPublic: false,
        snapshotId: null,
        schedulerHints: null,
        createdAt: new Date().toISOString(),
      },
      { commandId: `request-${request.id}` },
    );
  }

  /** A replica in `availabilityZone`, or on `onlyHost` (an admin's hint) when given. */
  async requestReplica(
    shareId: string,
    replicaId: string,
    availabilityZone: string | null,
    onlyHost?: string,
  ) {
    this.assign(replicaId);
    await this.commands.handle(
      shareDecider,
      shareStream(shareId),
      {
        type: 'RequestReplica',
        replicaId,
        availabilityZone,
        ...(onlyHost !== undefined && { onlyHost }),
        now: new Date().toISOString(),
      },
      { commandId: `request-${replicaId}` },
    );
  }

  async share(id: string): Promise<ActiveShare> {
    return activeShareOf((await this.commands.load(shareDecider, shareStream(id))).state);
  }

  /** Runs rounds until the log is quiet; returns every event handed out meanwhile. */
  async runRounds(): Promise<RecordedEvent[]> {
    const seen: RecordedEvent[] = [];
    for (let round = 0; round < 20; round++) {
      const batch = await this.events.readAll({ after: this.position });
      if (batch.length === 0) return seen;
      for (const event of batch) {
        seen.push(event);
        this.position = event.position;
        const owner = this.ownerOf(event);
        await deliver(owner.workflows, event);
        // The owner recorded a placement; the other scheduler hears of it after this round.
        if (PLACEMENTS.has(event.type)) {
          for (const other of this.schedulers) if (other !== owner) other.unheard.push(event);
        }
        await deliver(this.node, event);
      }
      for (const scheduler of this.schedulers) {
        for (const event of scheduler.unheard.splice(0)) await deliver(scheduler.workflows, event);
      }
    }
    throw new Error('the workflows did not settle in 20 rounds');
  }

  private assign(id: string): void {
    this.owners.set(id, this.owners.size % 2);
  }

  /** A replica's events go to the scheduler that owns the replica, others to the share's. */
  private ownerOf(event: RecordedEvent): Scheduler {
    const replicaId = (event.data as { replicaId?: unknown }).replicaId;
    const key =
      typeof replicaId === 'string' ? replicaId : event.streamId.slice(SHARE_STREAM_PREFIX.length);
    return this.schedulers[this.owners.get(key) ?? 0] as Scheduler;
  }
}
