import {
  Global,
  Inject,
  Module,
  type DynamicModule,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { CommandHandler } from '#hawser/application';
import {
  createEventStore,
  createSnapshotStore,
  type EventStore,
  type SnapshotStore,
  type UpcasterRegistry,
} from '#hawser/eventstore';
import { createDocumentStore, type DocumentStore } from '#hawser/read-models';
import { HAWSER_CONFIG, type HawserConfig } from '../config/hawser-config.js';
import { DOCUMENT_STORE, EVENT_STORE, SNAPSHOT_STORE } from '../tokens/tokens.js';
import { WorkflowRunners } from '../workflows/workflow-runners.js';
import { instrumentedEventStore } from '../observability/instrumented-event-store.js';

/** Closes the stores last, after every subscriber has stopped. */
class StoreCloser implements OnApplicationShutdown {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(DOCUMENT_STORE) private readonly documents: DocumentStore,
    @Inject(SNAPSHOT_STORE) private readonly snapshots: SnapshotStore | null,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.documents.close();
    await this.snapshots?.close();
    await this.events.close();
  }
}

/**
 * The event store and the read-model store, chosen by configuration: SQLite files under the data
 * directory by default, KurrentDB and MongoDB when their URLs are set.
 */
@Global()
@Module({})
export class PersistenceModule {
  static forRoot(config: HawserConfig, upcasters: UpcasterRegistry): DynamicModule {
    return {
      module: PersistenceModule,
      providers: [
        { provide: HAWSER_CONFIG, useValue: config },
        {
          provide: EVENT_STORE,
          useFactory: async () =>
            instrumentedEventStore(
              await createEventStore({
                dataDir: config.dataDir,
                eventstoreUrl: config.eventstoreUrl,
                upcasters,
              }),
            ),
        },
        {
          provide: DOCUMENT_STORE,
          useFactory: () =>
            createDocumentStore({ dataDir: config.dataDir, mongoUrl: config.mongoUrl }),
        },
        {
          provide: SNAPSHOT_STORE,
          useFactory: () =>
            config.aggregateSnapshots ? createSnapshotStore(config.dataDir) : null,
        },
        {
          provide: CommandHandler,
          useFactory: (store: EventStore, snapshots: SnapshotStore | null) =>
            new CommandHandler(store, snapshots ?? undefined),
          inject: [EVENT_STORE, SNAPSHOT_STORE],
        },
        StoreCloser,
        { provide: WorkflowRunners, useValue: new WorkflowRunners() },
      ],
      exports: [HAWSER_CONFIG, EVENT_STORE, DOCUMENT_STORE, CommandHandler, WorkflowRunners],
    };
  }
}
