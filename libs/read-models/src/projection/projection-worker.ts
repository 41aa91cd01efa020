import { setTimeout as delay } from 'node:timers/promises';
import type { EventStore } from '#hawser/eventstore';
import { CheckpointConflictError, type DocumentStore } from '../document-store.port.js';
import { FollowerSleep } from '../subscription/follower-sleep.js';
import { SharedLogReader } from '../subscription/shared-log-reader.js';
import type { Projection } from './projection.js';
import type { ProjectionTarget } from './projection-target.js';
import { UnitOfWork } from './unit-of-work.js';

export interface ProjectionWorkerOptions {
  /** Most events per batch (and per commit). */
  readonly batchSize: number;
  /** Longest sleep when caught up, in case nothing wakes the worker. */
  readonly pollIntervalMs: number;
  /** Store the checkpoint after this many positions without a matching event. */
  readonly idleCheckpointGap: number;
  /** Called after the worker has moved on (for read-your-writes waiters). */
  readonly onProgress: () => void;
}

const MAX_FAILURE_DELAY_MS = 30_000;
const FIRST_FAILURE_DELAY_MS = 100;

/**
 * Feeds one projection from the log into one target, a batch at a time: read a page of
 * matching events (from the process's shared log reader), let the projection handle them into
 * a unit of work, commit the writes with the position reached. While catching up, pages are
 * full; once live, a page holds what was appended since the last one.
 */
export class ProjectionWorker {
  /** How far the log has been examined and its effects committed. */
  examined = 0;
  /** The last failure, until a batch succeeds again. */
  lastError: Error | undefined;

  private readonly owned: ReadonlySet<string>;
  private stopping = false;
  private readonly abort = new AbortController();
  private loop: Promise<void> | undefined;
  private gate: { closed: Promise<void>; open: () => void } | undefined;
  private currentStep: Promise<unknown> | undefined;
  private caughtUpTask: (() => Promise<void>) | undefined;
  private readonly asleep: FollowerSleep;

  constructor(
    readonly projection: Projection,
    private readonly events: EventStore,
    private readonly documents: DocumentStore,
    private readonly target: ProjectionTarget,
    private readonly options: ProjectionWorkerOptions,
  ) {
    this.owned = new Set(projection.collections);
    this.asleep = new FollowerSleep(events, options.pollIntervalMs);
  }

  async load(): Promise<void> {
    this.examined = await this.target.load();
  }

  /**
   * Handles the next page (never past `upTo`) and commits it. Returns whether the worker has
   * caught up with the log (or with `upTo`).
   */
  async step(upTo?: number): Promise<boolean> {
    return this.target.batch(async (save) => {
      const page = await SharedLogReader.of(this.events).page(this.examined, {
        filter: this.projection.filter,
        maxCount: this.options.batchSize,
        upTo,
      });
      // Before the page is handled, so that a failing task leaves it to be read again.
      if (page.caughtUp && this.caughtUpTask) {
        await this.caughtUpTask();
        this.caughtUpTask = undefined;
      }
      if (page.events.length > 0) {
        const work = new UnitOfWork(
          this.documents,
          this.owned,
          (c) => this.target.address(c),
          (c, id) => this.target.isCertainlyAbsent(c, id),
          (c, id) => this.target.remembered?.(c, id),
        );
        for (const event of page.events) await this.projection.handle(event, work);
        await save(work.writes(), page.examinedUpTo);
      } else if (page.examinedUpTo - this.target.saved >= this.options.idleCheckpointGap) {
        await save([], page.examinedUpTo);
      }
      this.examined = page.examinedUpTo;
      if (page.caughtUp) this.target.caughtUp?.();
      return page.caughtUp;
    });
  }

  /**
   * Runs `task` once, on reading the page that catches up with the log, before handling it:
   * what the worker reports as examined has been through it. A failing task fails the batch.
   */
  onceCaughtUp(task: () => Promise<void>): void {
    this.caughtUpTask = task;
  }

  /** Runs batches until `stop()`, asleep in the shared log reader when caught up. */
  start(): void {
    this.loop ??= this.run();
  }

  /** Lets the running batch finish, then holds the loop until `resume()`. */
  async pause(): Promise<void> {
    if (this.gate === undefined) {
      let open = () => {};
      const closed = new Promise<void>((resolve) => (open = resolve));
      this.gate = { closed, open };
    }
    // Held, it deals with nothing: the reader no longer moves it past what it does not follow.
    this.asleep.wake();
    await this.currentStep;
  }

  /** The read model may have changed while paused (maintenance, a rebuild's swap). */
  resume(): void {
    this.target.forget?.();
    this.gate?.open();
    this.gate = undefined;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.abort.abort();
    this.asleep.wake();
    this.resume();
    await this.loop;
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopping) {
      if (this.gate) {
        await this.gate.closed;
        continue;
      }
      try {
        const step = this.step();
        this.currentStep = step.catch(() => undefined);
        const caughtUp = await step;
        this.lastError = undefined;
        failures = 0;
        this.options.onProgress();
        if (caughtUp) await this.sleepInReader();
      } catch (error) {
        await this.recover(error, failures++);
      } finally {
        this.currentStep = undefined;
      }
    }
  }

  /** Asleep until the log holds an event it follows (see `FollowerSleep`). */
  private async sleepInReader(): Promise<void> {
    if (this.stopping || this.gate) return;
    await this.asleep.sleep({
      after: this.examined,
      filter: this.projection.filter,
      passed: (upTo) => {
        this.examined = upTo;
        this.options.onProgress();
      },
    });
  }

  /**
   * Another runner moved the checkpoint: resume from where it is. Anything else (a failing
   * handler, an unreachable store) is retried after a growing delay, the batch discarded.
   */
  private async recover(error: unknown, failures: number): Promise<void> {
    this.lastError = error instanceof Error ? error : new Error(String(error));
    if (error instanceof CheckpointConflictError) {
      const reloaded = await this.load().then(
        () => true,
        () => false,
      );
      if (reloaded) return;
    }
    const wait = Math.min(MAX_FAILURE_DELAY_MS, FIRST_FAILURE_DELAY_MS * 2 ** failures);
    await delay(wait, undefined, { signal: this.abort.signal }).catch(() => undefined);
  }
}
