import 'reflect-metadata';
import { setTimeout as delay } from 'node:timers/promises';
import {
  Global,
  Logger,
  Module,
  type DynamicModule,
  type INestApplicationContext,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { hawserNestLogger } from '#hawser/observability';
import type { EventStore } from '#hawser/eventstore';
import {
  DOCUMENT_STORE,
  EVENT_STORE,
  NatsTransportModule,
  ObservabilityModule,
  ObservabilityServerModule,
  PersistenceModule,
  READ_MODEL_POSITIONS,
  type HawserConfig,
  type NatsConnectionOptions,
  type ReadModelPositions,
} from '#hawser/platform';
import { ALL_PROJECTIONS } from '#hawser/projections';
import { readLogPage, type DocumentStore, type Projection } from '#hawser/read-models';
import { createUpcasters } from '../../../eventstore/catalogue.js';
import { ShareNodeModule } from './share-node.module.js';
import type { ShareNodeOptions } from './share-node.service.js';

const POLL_MS = 50;

/**
 * How far the read models another process writes (the API's projections) reflect the log. A
 * projection has reached a position when its stored checkpoint is there, or when no event it
 * handles lies between its checkpoint and that position: checkpoints move only with matching
 * events, so an unrelated tail of the log must not count as lag.
 */
export class FollowedProjections implements ReadModelPositions {
  private readonly logger = new Logger('read-models');

  constructor(
    private readonly events: EventStore,
    private readonly documents: DocumentStore,
    private readonly projections: readonly Projection[],
  ) {}

  async waitForPosition(position: number, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    let behind = this.projections;
    for (;;) {
      const reached = await Promise.all(behind.map((p) => this.hasReached(p, position)));
      behind = behind.filter((_, i) => !reached[i]);
      if (behind.length === 0) return true;
      if (Date.now() >= deadline) {
        this.logger.warn(
          `read models ${behind.map((p) => p.name).join(', ')} had not reached position ` +
            `${position} after ${timeoutMs} ms; is the API process, which writes them, running?`,
        );
        return false;
      }
      await delay(Math.min(POLL_MS, deadline - Date.now()));
    }
  }

  private async hasReached(projection: Projection, position: number): Promise<boolean> {
    const checkpoint = (await this.documents.readCheckpoint(projection.name)) ?? 0;
    if (checkpoint >= position) return true;
    const page = await readLogPage(this.events, checkpoint, {
      filter: projection.filter,
      maxCount: 1,
      upTo: position,
    });
    return page.events.length === 0 && page.examinedUpTo >= position;
  }
}

/** The share node only waits on the API's projections (its recovery reads `share_instances`). */
@Global()
@Module({
  providers: [
    {
      provide: READ_MODEL_POSITIONS,
      useFactory: (events: EventStore, documents: DocumentStore) =>
        new FollowedProjections(events, documents, ALL_PROJECTIONS),
      inject: [EVENT_STORE, DOCUMENT_STORE],
    },
  ],
  exports: [READ_MODEL_POSITIONS],
})
class FollowedProjectionsModule {}

/**
 * A share-node process: the drivers of its back ends, their registration, pool reports over
 * NATS and its workflow. It reads `share_instances` and writes no read model.
 */
@Module({})
class ShareNodeProcessModule {
  static forRoot(
    config: HawserConfig,
    nats: NatsConnectionOptions,
    node: ShareNodeOptions,
  ): DynamicModule {
    return {
      module: ShareNodeProcessModule,
      imports: [
        PersistenceModule.forRoot(config, createUpcasters()),
        NatsTransportModule.forRoot(nats),
        FollowedProjectionsModule,
        ShareNodeModule.forRoot(node),
        ObservabilityModule.forRoot(),
        ObservabilityServerModule.forRoot(),
      ],
    };
  }
}

/**
 * Resolves once the node has registered, reported, settled open operations and follows the log;
 * rejects when it cannot start (e.g. another node drives one of its back ends).
 */
export const createShareNodeApp = (
  config: HawserConfig,
  nats: NatsConnectionOptions,
  node: ShareNodeOptions,
  options: { logger?: false } = {},
): Promise<INestApplicationContext> =>
  NestFactory.createApplicationContext(ShareNodeProcessModule.forRoot(config, nats, node), {
    abortOnError: false,
    logger: options.logger ?? hawserNestLogger('share-node'),
  });
