import {
  Global,
  Logger,
  Module,
  type BeforeApplicationShutdown,
  type DynamicModule,
  type OnModuleInit,
} from '@nestjs/common';
import type { EventStore } from '#hawser/eventstore';
import { ALL_PROJECTIONS } from '#hawser/projections';
import { ProjectionRunner, ReadModelChanges, type DocumentStore } from '#hawser/read-models';
import { HAWSER_CONFIG, type HawserConfig } from '../config/hawser-config.js';
import {
  DOCUMENT_STORE,
  EVENT_STORE,
  READ_MODEL_POSITIONS,
  READ_YOUR_WRITES,
  type ReadYourWrites,
} from '../tokens/tokens.js';

/** Starts the read models first and stops them last, around everything that reads them. */
class ProjectionLifecycle implements OnModuleInit, BeforeApplicationShutdown {
  constructor(private readonly runner: ProjectionRunner) {}

  async onModuleInit(): Promise<void> {
    await this.runner.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.runner.stop();
  }
}

/** Read-your-writes over the projection runner: bounded, so a slow projection cannot hang a request. */
class ProjectionReadYourWrites implements ReadYourWrites {
  private readonly logger = new Logger('read-your-writes');

  constructor(
    private readonly runner: ProjectionRunner,
    private readonly timeoutMs: number,
  ) {}

  async waitFor(position: number | undefined): Promise<void> {
    if (position === undefined) return;
    const reached = await this.runner.waitForPosition(position, this.timeoutMs);
    if (!reached)
      this.logger.warn(
        `read models had not reached position ${position} after ${this.timeoutMs} ms`,
      );
  }
}

@Global()
@Module({})
export class ProjectionsModule {
  static forRoot(): DynamicModule {
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
          provide: READ_YOUR_WRITES,
          useFactory: (runner: ProjectionRunner, config: HawserConfig) =>
            new ProjectionReadYourWrites(runner, config.readYourWritesMs),
          inject: [ProjectionRunner, HAWSER_CONFIG],
        },
        { provide: READ_MODEL_POSITIONS, useExisting: ProjectionRunner },
        {
          provide: ProjectionLifecycle,
          useFactory: (runner: ProjectionRunner) => new ProjectionLifecycle(runner),
          inject: [ProjectionRunner],
        },
      ],
      exports: [ProjectionRunner, ReadModelChanges, READ_YOUR_WRITES, READ_MODEL_POSITIONS],
    };
  }
}
