import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { connect, RequestError, type Msg, type NatsConnection } from '@nats-io/transport-node';
import {
  PositionWaiters,
  type DocumentWrite,
  type ProjectionRunner,
  type ReadModelChanges,
} from '#hawser/read-models';
import type { NatsConnectionOptions } from '../transport/nats-capability-reports.js';
import { rebuildHere, type RebuildOutcome } from './projection-rebuilds.js';

/** Told by an API process that does not project: "I appended up to here, look at the log". */
export const PROJECTOR_APPENDED_SUBJECT = 'hawser.projector.appended';
/** Told by the active projector: how far its projections have passed, while a process waits. */
export const PROJECTOR_REACHED_SUBJECT = 'hawser.projector.reached';
/** The active projector's committed read-model writes, for the other processes' subscriptions. */
export const READ_MODEL_CHANGES_SUBJECT = 'hawser.read-models.changes';

/** Asked by an API process that does not project, for an admin's rebuild of a projection. */
export const PROJECTOR_REBUILD_SUBJECT = 'hawser.projector.rebuild';

/** How long a forwarded rebuild is waited for: a rebuild of a large store takes minutes. */
const REBUILD_ANSWER_MS = 15 * 60_000;

/** While a wait is not answered, how often the projector is told of it again. */
const ASK_AGAIN_MS = 100;

interface PositionMessage {
  readonly position: number;
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
 * What the API processes tell each other over NATS about the read models. A process that does
 * not project tells the projector of its appends, once a turn of its event loop, and again
 * every 100 ms while one is not passed (the projector may have changed); the projector looks
 * at the log at once rather than at its next poll, and tells every process how far its
 * projections have passed, once a turn, while a process waits for a position it has not
 * passed. So nobody polls the read models, and no write costs a request and a reply. The
 * projector also publishes the writes of the collections that live subscriptions follow;
 * every process republishes the others' writes into its own change feed.
 */
export class NatsProjectorBus {
  private readonly logger = new Logger('projector-bus');
  private readonly origin = randomUUID();
  private connection: NatsConnection | undefined;
  /** How far the projector last said its projections had passed. */
  private projectorReached = 0;
  private readonly waiters = new PositionWaiters(() => this.projectorReached);
  private readonly appended = new OncePerTurn((position) =>
    this.connection?.publish(PROJECTOR_APPENDED_SUBJECT, JSON.stringify({ position })),
  );
  /** The highest position this process waits or waited for, and the timer that asks again. */
  private highestWaited = 0;
  private askingAgain: NodeJS.Timeout | undefined;

  constructor(private readonly options: NatsConnectionOptions) {}

  async open(changes: ReadModelChanges): Promise<void> {
    this.connection = await connect({
      servers: [...this.options.servers],
      name: `${this.options.name}-projector-bus`,
      maxReconnectAttempts: -1,
      // The projector's own change messages would come back to it only to be dropped.
      noEcho: true,
    });
    this.connection.subscribe(PROJECTOR_REACHED_SUBJECT, {
      callback: (error, msg) => {
        const message = error ? undefined : decode<PositionMessage>(msg);
        if (message === undefined || !Number.isSafeInteger(message.position)) return;
        if (message.position <= this.projectorReached) return;
        this.projectorReached = message.position;
        this.waiters.progressed();
      },
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

  /**
   * On the active projector: tells how far its projections have passed, looks at the log when
   * told of appends, and publishes the followed collections' writes.
   */
  async serve(
    runner: ProjectionRunner,
    changes: ReadModelChanges,
    collections: readonly string[],
  ): Promise<void> {
    const connection = this.opened();
    const reached = new OncePerTurn((position) =>
      connection.publish(PROJECTOR_REACHED_SUBJECT, JSON.stringify({ position })),
    );
    runner.onReached((position) => reached.add(position));
    connection.subscribe(PROJECTOR_APPENDED_SUBJECT, {
      callback: (error, msg) => {
        const message = error ? undefined : decode<PositionMessage>(msg);
        if (message === undefined || !Number.isSafeInteger(message.position)) return;
        runner.appendedElsewhere(message.position);
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
   * On any other process: true once the projector has said it passed `position`, false after
   * `timeoutMs` (no projector said so in time, e.g. none holds the lease yet).
   */
  waitForPosition(position: number, timeoutMs: number): Promise<boolean> {
    const waiting = this.waiters.wait(position, timeoutMs);
    if (position > this.projectorReached) {
      this.appended.add(position);
      this.highestWaited = Math.max(this.highestWaited, position);
      this.askingAgain ??= setInterval(() => this.askAgain(), ASK_AGAIN_MS).unref();
    }
    return waiting;
  }

  /**
   * Tells the projector again of the highest position waited for until it says it passed it:
   * a projector that took over after the first telling (or a message lost to a reconnection)
   * would otherwise leave the waits to their time-outs.
   */
  private askAgain(): void {
    if (this.projectorReached >= this.highestWaited) {
      clearInterval(this.askingAgain);
      this.askingAgain = undefined;
      return;
    }
    this.appended.add(this.highestWaited);
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
    clearInterval(this.askingAgain);
    this.waiters.releaseAll();
    await this.connection?.drain().catch(() => undefined);
    this.connection = undefined;
  }

  private opened(): NatsConnection {
    if (this.connection === undefined) throw new Error('the projector bus is not open');
    return this.connection;
  }
}

/**
 * The highest of the positions added within a turn of the event loop, handed on once at its
 * end: a burst of writes (one group commit) or of projected pages is one message, not one each.
 */
class OncePerTurn {
  private highest = 0;
  private pending = false;

  constructor(private readonly send: (position: number) => void) {}

  add(position: number): void {
    this.highest = Math.max(this.highest, position);
    if (this.pending) return;
    this.pending = true;
    setImmediate(() => {
      this.pending = false;
      try {
        this.send(this.highest);
      } catch {
        // The connection closed meanwhile: nobody is left to tell.
      }
    });
  }
}
