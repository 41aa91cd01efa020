import { setTimeout as delay } from 'node:timers/promises';
import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import {
  connect,
  RequestError,
  TimeoutError,
  type Msg,
  type NatsConnection,
} from '@nats-io/transport-node';
import type { DocumentWrite, ProjectionRunner, ReadModelChanges } from '#hawser/read-models';
import type { NatsConnectionOptions } from '../transport/nats-capability-reports.js';
import { rebuildHere, type RebuildOutcome } from './projection-rebuilds.js';

/** Asked by an API process that did not project: "tell me once you have passed this position". */
export const PROJECTOR_WAIT_SUBJECT = 'hawser.projector.wait';
/** The active projector's committed read-model writes, for the other processes' subscriptions. */
export const READ_MODEL_CHANGES_SUBJECT = 'hawser.read-models.changes';

/** Asked by an API process that does not project, for an admin's rebuild of a projection. */
export const PROJECTOR_REBUILD_SUBJECT = 'hawser.projector.rebuild';

/** How long a forwarded rebuild is waited for: a rebuild of a large store takes minutes. */
const REBUILD_ANSWER_MS = 15 * 60_000;

/** While no process projects (a takeover in progress), how long before asking again. */
const NO_PROJECTOR_RETRY_MS = 100;

interface WaitRequest {
  readonly position: number;
  readonly timeoutMs: number;
}

interface ChangesMessage {
  readonly origin: string;
  readonly writes: readonly DocumentWrite[];
}

const decode = <T>(msg: Msg): T | undefined => {
  try {
    return msg.json<T>();
  } catch {
    return undefined;
  }
};

/**
 * What the API processes tell each other over NATS about the read models. The active projector
 * answers waits for a log position once its projections have passed it (a request per wait,
 * answered when reached: nobody polls) and publishes the writes of the collections that live
 * subscriptions follow; every process republishes the others' writes into its own change feed.
 */
export class NatsProjectorBus {
  private readonly logger = new Logger('projector-bus');
  private readonly origin = randomUUID();
  private connection: NatsConnection | undefined;

  constructor(private readonly options: NatsConnectionOptions) {}

  async open(changes: ReadModelChanges): Promise<void> {
    this.connection = await connect({
      servers: [...this.options.servers],
      name: `${this.options.name}-projector-bus`,
      maxReconnectAttempts: -1,
      // The projector's own change messages would come back to it only to be dropped.
      noEcho: true,
      // Otherwise every request (a read-your-writes wait per write) captures a stack trace.
      noAsyncTraces: true,
    });
    this.connection.subscribe(READ_MODEL_CHANGES_SUBJECT, {
      callback: (error, msg) => {
        // Decoded only while a subscription of this process follows the read models.
        if (!changes.followed) return;
        const message = error ? undefined : decode<ChangesMessage>(msg);
        if (message === undefined || message.origin === this.origin) return;
        changes.publish(message.writes);
      },
    });
    await this.connection.flush();
  }

  /** On the active projector: answers waits and publishes the followed collections' writes. */
  async serve(
    runner: ProjectionRunner,
    changes: ReadModelChanges,
    collections: readonly string[],
  ): Promise<void> {
    const connection = this.opened();
    connection.subscribe(PROJECTOR_WAIT_SUBJECT, {
      callback: (error, msg) => {
        const request = error ? undefined : decode<WaitRequest>(msg);
        if (request === undefined || !Number.isSafeInteger(request.position)) return;
        void runner
          .waitForPosition(request.position, request.timeoutMs)
          .then((reached) => msg.respond(JSON.stringify({ reached })));
      },
    });
    connection.subscribe(PROJECTOR_REBUILD_SUBJECT, {
      callback: (error, msg) => {
        const request = error ? undefined : decode<{ name: string }>(msg);
        if (typeof request?.name !== 'string') return;
        void rebuildHere(runner, request.name).then(
          (outcome) => msg.respond(JSON.stringify(outcome)),
          (failure: unknown) => {
            this.logger.error(`rebuild of ${request.name}: ${String(failure)}`);
            msg.respond(JSON.stringify({ kind: 'no-projector' } satisfies RebuildOutcome));
          },
        );
      },
    });
    for (const collection of collections) {
      changes.listen(collection, (writes) =>
        connection.publish(
          READ_MODEL_CHANGES_SUBJECT,
          JSON.stringify({ origin: this.origin, writes } satisfies ChangesMessage),
        ),
      );
    }
    await connection.flush();
  }

  /**
   * On any other process: true once the projector has passed `position`, false after
   * `timeoutMs` (no projector answered in time, e.g. none holds the lease yet).
   */
  async waitForPosition(position: number, timeoutMs: number): Promise<boolean> {
    const connection = this.opened();
    const deadline = Date.now() + timeoutMs;
    for (let left = timeoutMs; left > 0; left = deadline - Date.now()) {
      try {
        const reply = await connection.request(
          PROJECTOR_WAIT_SUBJECT,
          JSON.stringify({ position, timeoutMs: left } satisfies WaitRequest),
          { timeout: left },
        );
        return decode<{ reached: boolean }>(reply)?.reached === true;
      } catch (error) {
        if (error instanceof TimeoutError) return false;
        if (!(error instanceof RequestError && error.isNoResponders())) {
          this.logger.warn(`waiting for the projector: ${String(error)}`);
          return false;
        }
        await delay(Math.min(NO_PROJECTOR_RETRY_MS, Math.max(0, deadline - Date.now())));
      }
    }
    return false;
  }

  /** On any other process: has the projector rebuild a projection, and says how it went. */
  async requestRebuild(name: string): Promise<RebuildOutcome> {
    try {
      const reply = await this.opened().request(
        PROJECTOR_REBUILD_SUBJECT,
        JSON.stringify({ name }),
        {
          timeout: REBUILD_ANSWER_MS,
        },
      );
      return decode<RebuildOutcome>(reply) ?? { kind: 'no-projector' };
    } catch (error) {
      if (!(error instanceof RequestError && error.isNoResponders())) {
        this.logger.warn(`asking the projector for a rebuild: ${String(error)}`);
      }
      return { kind: 'no-projector' };
    }
  }

  async close(): Promise<void> {
    await this.connection?.drain().catch(() => undefined);
    this.connection = undefined;
  }

  private opened(): NatsConnection {
    if (this.connection === undefined) throw new Error('the projector bus is not open');
    return this.connection;
  }
}
