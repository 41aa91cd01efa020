import { setTimeout as delay } from 'node:timers/promises';
import { Logger } from '@nestjs/common';
import type { EventStore, RecordedEvent } from '#hawser/eventstore';
import {
  CheckpointConflictError,
  FollowerSleep,
  SharedLogReader,
  type DocumentStore,
  type DocumentWrite,
} from '#hawser/read-models';
import { failureMessage, PARKED_EVENTS, parkedEvent } from './parked-event.js';
import { inLogOrder, streamsSideBySide } from './page-order.js';
import type { ProcessManager } from './process-manager.js';
import { backOffDelay, type RetryPolicy } from './retry-policy.js';
import { traceStep } from './step-trace.js';

export interface ProcessManagerWorkerOptions {
  readonly retry: RetryPolicy;
  /** Longest sleep when caught up, in case nothing wakes the worker. */
  readonly pollIntervalMs: number;
  /** Called after the worker has moved on (for read-your-writes waiters). */
  readonly onProgress: () => void;
}

/** Events read per query; the checkpoint moves past them in one commit. */
const PAGE_SIZE = 100;
/** Store the checkpoint after this many positions without a matching event. */
const IDLE_CHECKPOINT_GAP = 10_000;
const STORE_FAILURE_DELAY_MS = 1_000;

type Outcome =
  | { kind: 'handled'; writes: readonly DocumentWrite[] }
  | { kind: 'failed'; error: unknown; attempts: number };

/**
 * One durable subscriber: handles its process manager's events in log order (stream by stream
 * when its streams are apart), moving the checkpoint `pm:<name>` past each page of them. A
 * failing event is retried with back-off and, when it keeps failing, parked (written to
 * `parked_events` in the same commit as the checkpoint that moves past it).
 */
export class ProcessManagerWorker {
  /** How far the log has been examined (and handled). */
  examined = 0;
  private stored: number | undefined;
  private stopping = false;
  private readonly abort = new AbortController();
  private loop: Promise<void> | undefined;
  private readonly asleep: FollowerSleep;
  private readonly logger: Logger;

  constructor(
    readonly processManager: ProcessManager,
    private readonly events: EventStore,
    private readonly documents: DocumentStore,
    private readonly options: ProcessManagerWorkerOptions,
  ) {
    this.logger = new Logger(`pm:${processManager.name}`);
    this.asleep = new FollowerSleep(events, options.pollIntervalMs);
  }

  get checkpointName(): string {
    return `pm:${this.processManager.name}`;
  }

  async load(): Promise<void> {
    this.stored = await this.documents.readCheckpoint(this.checkpointName);
    this.examined = this.stored ?? 0;
  }

  start(): void {
    this.loop ??= this.run();
  }

  /** Lets the event in hand finish (a back-off sleep is cut short: it is retried next start). */
  async stop(): Promise<void> {
    this.stopping = true;
    this.abort.abort();
    this.asleep.wake();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      try {
        const caughtUp = await this.step();
        if (caughtUp) await this.sleepInReader();
      } catch (error) {
        if (error instanceof CheckpointConflictError) {
          await this.load().catch(() => undefined);
          continue;
        }
        // E.g. a full disk: the events in hand are handled again (their reactions repeat nothing).
        this.logger.warn(
          `cannot read the log or store progress (${failureMessage(error)}); trying again in ${STORE_FAILURE_DELAY_MS} ms`,
        );
        await this.sleep(STORE_FAILURE_DELAY_MS);
      }
    }
  }

  /**
   * Handles one page of events (in log order, or stream by stream for a process manager whose
   * streams are apart) and stores the checkpoint once, past the page, with the documents the
   * reactions returned and the events parked on the way: one commit a page, not one an event.
   * A crash before that commit handles the page again, which repeats nothing (commands carry
   * ids derived from their event). Returns whether the worker has caught up with the log.
   */
  private async step(): Promise<boolean> {
    const page = await SharedLogReader.of(this.events).page(this.examined, {
      filter: this.processManager.filter,
      maxCount: PAGE_SIZE,
    });
    const handleAll = this.processManager.streamsApart ? streamsSideBySide : inLogOrder;
    const outcomes = await handleAll(page.events, (event) => this.handleWithRetries(event));
    const writes: DocumentWrite[] = [];
    let handledUpTo: number | undefined;
    for (const [index, event] of page.events.entries()) {
      const outcome = outcomes[index];
      if (outcome === undefined) {
        // Stopped in a back-off: what was handled before stays handled.
        if (handledUpTo !== undefined) await this.save(writes, handledUpTo);
        return false;
      }
      if (outcome.kind === 'failed') writes.push(this.parkedWrite(event, outcome));
      else writes.push(...outcome.writes);
      handledUpTo = event.position;
    }
    const idleGap = page.examinedUpTo - (this.stored ?? 0) >= IDLE_CHECKPOINT_GAP;
    if (handledUpTo !== undefined || idleGap) await this.save(writes, page.examinedUpTo);
    this.examined = page.examinedUpTo;
    this.options.onProgress();
    return page.caughtUp;
  }

  /** Asleep until the log holds an event it follows (see `FollowerSleep`). */
  private async sleepInReader(): Promise<void> {
    if (this.stopping) return;
    await this.asleep.sleep({
      after: this.examined,
      filter: this.processManager.filter,
      passed: (upTo) => {
        this.examined = upTo;
        this.options.onProgress();
      },
    });
  }

  private parkedWrite(
    event: RecordedEvent,
    failure: Extract<Outcome, { kind: 'failed' }>,
  ): DocumentWrite {
    const document = parkedEvent(this.processManager.name, event, failure.error, failure.attempts);
    return { kind: 'put', collection: PARKED_EVENTS, document };
  }

  /** The outcome after the configured tries, or undefined when stopped during a back-off. */
  private async handleWithRetries(event: RecordedEvent): Promise<Outcome | undefined> {
    const { retry } = this.options;
    for (let attempt = 1; ; attempt += 1) {
      try {
        const writes = await traceStep(this.processManager.name, event, this.logger, () =>
          this.processManager.handle(event),
        );
        return { kind: 'handled', writes: writes ?? [] };
      } catch (error) {
        const failed = `${event.type} ${event.id} failed (try ${attempt} of ${retry.attempts}): ${failureMessage(error)}`;
        if (attempt >= retry.attempts) {
          this.logger.warn(`${failed}; parked`);
          return { kind: 'failed', error, attempts: attempt };
        }
        const wait = backOffDelay(retry, attempt);
        this.logger.warn(`${failed}; retrying in ${wait} ms`);
        await this.sleep(wait);
        if (this.stopping) return undefined;
      }
    }
  }

  private async save(writes: readonly DocumentWrite[], position: number): Promise<void> {
    await this.documents.commit(writes, {
      name: this.checkpointName,
      position,
      expectedPosition: this.stored,
    });
    this.stored = position;
    this.examined = position;
    this.options.onProgress();
  }

  private async sleep(ms: number): Promise<void> {
    await delay(ms, undefined, { signal: this.abort.signal }).catch(() => undefined);
  }
}
