import path from 'node:path';
import {
  Global,
  Logger,
  Module,
  type BeforeApplicationShutdown,
  type DynamicModule,
  type OnModuleInit,
} from '@nestjs/common';
import { currentProcess } from '#hawser/drivers';
import type { EventStore } from '#hawser/eventstore';
import { ALL_PROJECTIONS, SHARES } from '#hawser/projections';
import { ProjectionRunner, ReadModelChanges, type DocumentStore } from '#hawser/read-models';
import { HAWSER_CONFIG, type HawserConfig } from '../config/hawser-config.js';
import { NatsProjectorBus } from '../projector/projector-bus.js';
import { rebuildHere, type RebuildOutcome } from '../projector/projection-rebuilds.js';
import { SqliteProjectorLease } from '../projector/projector-lease.js';
import { ProjectorRole } from '../projector/projector-role.js';
import { UNHANDLED_ERROR_EXIT_CODE } from '../process/service-process.js';
import {
  DOCUMENT_STORE,
  EVENT_STORE,
  READ_MODEL_POSITIONS,
  READ_YOUR_WRITES,
  type ReadModelPositions,
  type ReadYourWrites,
} from '../tokens/tokens.js';

/** The collections whose changes live subscriptions follow, relayed to every API process. */
const RELAYED_COLLECTIONS = [SHARES];
const PROJECTOR_BUS = Symbol('PROJECTOR_BUS');

/**
 * Starts the read models first and stops them last, around everything that reads them: at
 * once in a single process, or when this process becomes the projector among several.
 */
class ProjectionLifecycle implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('projections');

  constructor(
    private readonly runner: ProjectionRunner,
    private readonly role: ProjectorRole,
    private readonly changes: ReadModelChanges,
    private readonly bus: NatsProjectorBus | null,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.bus?.open(this.changes);
    await this.role.whenActive(async () => {
      const { discardedGenerations } = await this.runner.start();
      for (const generation of discardedGenerations) {
        this.logger.warn(
          `dropped generation ${generation}, prepared by a rebuild that never ended`,
        );
      }
      await this.bus?.serve(this.runner, this.changes, RELAYED_COLLECTIONS);
      // In the background: the live read models answer meanwhile, as during any rebuild.
      void this.runner.rebuildOutdated().then(
        (rebuilt) => {
          for (const name of rebuilt) {
            this.logger.log(`rebuilt ${name}, written before by an earlier version of it`);
          }
        },
        (error: unknown) => this.logger.error(`rebuilding outdated read models: ${String(error)}`),
      );
    });
    await this.role.begin();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.runner.stop();
    this.role.stop();
    await this.bus?.close();
  }
}

/**
 * Read-your-writes, bounded so a slow projection cannot hang a request: on the projector, its
 * own runner; on another API process, the projector's answer over NATS.
 */
class ProjectionReadYourWrites implements ReadYourWrites, ReadModelPositions {
  private readonly logger = new Logger('read-your-writes');

  constructor(
    private readonly runner: ProjectionRunner,
    private readonly role: ProjectorRole,
    private readonly bus: NatsProjectorBus | null,
    private readonly timeoutMs: number,
  ) {}

  async waitFor(position: number | undefined): Promise<void> {
    if (position === undefined) return;
    const reached = await this.waitForPosition(position, this.timeoutMs);
    if (!reached)
      this.logger.warn(
        `read models had not reached position ${position} after ${this.timeoutMs} ms`,
      );
  }

  waitForPosition(position: number, timeoutMs: number): Promise<boolean> {
    if (this.role.isActive || this.bus === null) {
      return this.runner.waitForPosition(position, timeoutMs);
    }
    return this.bus.waitForPosition(position, timeoutMs);
  }
}

/**
 * An admin's rebuild of a projection, asked of any API process: run here on the projector, or
 * forwarded over NATS to the process that projects (a cluster's serving processes never do).
 */
export class ProjectionRebuilds {
  constructor(
    private readonly runner: ProjectionRunner,
    private readonly role: ProjectorRole,
    private readonly bus: NatsProjectorBus | null,
  ) {}

  rebuild(name: string): Promise<RebuildOutcome> {
    if (this.role.isActive || this.bus === null) return rebuildHere(this.runner, name);
    return this.bus.requestRebuild(name);
  }
}

/** Ends a projector that lost its lease; a supervisor (the cluster's primary) starts it again. */
const exitOnLostLease = (): void => {
  process.exit(UNHANDLED_ERROR_EXIT_CODE);
};

export interface ProjectionsOptions {
  /**
   * One of several API processes over NATS: the projections run where the projector lease is
   * held, and the others wait on that process. Without NATS a process always projects.
   */
  readonly elected?: boolean;
  /**
   * Among several, whether this process may take the lease (default true); false for a
   * cluster's serving processes when the cluster runs its projector in a process of its own.
   */
  readonly candidate?: boolean;
}

@Global()
@Module({})
export class ProjectionsModule {
  static forRoot(options: ProjectionsOptions = {}): DynamicModule {
    return {
      module: ProjectionsModule,
      providers: [
        { provide: ReadModelChanges, useValue: new ReadModelChanges() },
        {
          provide: ProjectionRunner,
          useFactory: (events: EventStore, documents: DocumentStore, changes: ReadModelChanges) =>
            new ProjectionRunner(events, documents, ALL_PROJECTIONS, { changes }),
          inject: [EVENT_STORE, DOCUMENT_STORE, ReadModelChanges],
        },
        {
          provide: PROJECTOR_BUS,
          useFactory: (config: HawserConfig) =>
            options.elected && config.natsServers
              ? new NatsProjectorBus({ servers: config.natsServers, name: 'hawser-api' })
              : null,
          inject: [HAWSER_CONFIG],
        },
        {
          provide: ProjectorRole,
          useFactory: async (config: HawserConfig, bus: NatsProjectorBus | null) => {
            if (bus === null) return ProjectorRole.alone();
            const lease = new SqliteProjectorLease(
              path.join(config.dataDir, 'projector-lease.sqlite'),
              await currentProcess(),
              config.projectorLeaseMs,
            );
            return options.candidate === false
              ? ProjectorRole.observer(lease)
              : ProjectorRole.elected(lease, config.projectorLeaseMs, exitOnLostLease);
          },
          inject: [HAWSER_CONFIG, PROJECTOR_BUS],
        },
        {
          provide: READ_YOUR_WRITES,
          useFactory: (
            runner: ProjectionRunner,
            role: ProjectorRole,
            bus: NatsProjectorBus | null,
            config: HawserConfig,
          ) => new ProjectionReadYourWrites(runner, role, bus, config.readYourWritesMs),
          inject: [ProjectionRunner, ProjectorRole, PROJECTOR_BUS, HAWSER_CONFIG],
        },
        { provide: READ_MODEL_POSITIONS, useExisting: READ_YOUR_WRITES },
        {
          provide: ProjectionRebuilds,
          useFactory: (
            runner: ProjectionRunner,
            role: ProjectorRole,
            bus: NatsProjectorBus | null,
          ) => new ProjectionRebuilds(runner, role, bus),
          inject: [ProjectionRunner, ProjectorRole, PROJECTOR_BUS],
        },
        {
          provide: ProjectionLifecycle,
          useFactory: (
            runner: ProjectionRunner,
            role: ProjectorRole,
            changes: ReadModelChanges,
            bus: NatsProjectorBus | null,
          ) => new ProjectionLifecycle(runner, role, changes, bus),
          inject: [ProjectionRunner, ProjectorRole, ReadModelChanges, PROJECTOR_BUS],
        },
      ],
      exports: [
        ProjectionRunner,
        ProjectorRole,
        ProjectionRebuilds,
        ReadModelChanges,
        READ_YOUR_WRITES,
        READ_MODEL_POSITIONS,
      ],
    };
  }
}
