import type { EventStore } from '#hawser/eventstore';
import { LogFollowers, type DocumentStore, type DocumentWrite } from '#hawser/read-models';
import { PARKED_EVENTS, parkedEvent, type ParkedEvent } from './parked-event.js';
import type { ProcessManager } from './process-manager.js';
import { ProcessManagerWorker } from './process-manager-worker.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-policy.js';
import { StorageFailureRetries } from './storage-failure-retries.js';

export interface ProcessManagerRunnerOptions {
  /** Back-off before an event is parked (default 5 tries, 200 ms doubling up to 30 s). */
  readonly retry?: Partial<RetryPolicy>;
  /** Longest sleep when caught up without an append signal (default 1,000 ms). */
  readonly pollIntervalMs?: number;
  /** How often events parked by a storage failure are retried by themselves (default 5,000 ms). */
  readonly storageRetryIntervalMs?: number;
}

/**
 * Runs process managers as durable subscribers of the log, one worker each, with checkpoints
 * and parked events kept in the document store. Events parked because the store could not
 * write are retried every `storageRetryIntervalMs` until they go through.
 */
export class ProcessManagerRunner {
  private readonly workers: LogFollowers<ProcessManagerWorker>;
  private readonly storageFailureRetries: StorageFailureRetries;

  constructor(
    private readonly events: EventStore,
    private readonly documents: DocumentStore,
    processManagers: readonly ProcessManager[],
    options: ProcessManagerRunnerOptions = {},
  ) {
    const retry = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    if (retry.attempts < 1) throw new Error('a retry policy needs at least one attempt');
    this.workers = new LogFollowers(events, 'process manager');
    for (const processManager of processManagers) {
      this.workers.add(
        processManager.name,
        new ProcessManagerWorker(processManager, events, documents, {
          retry,
          pollIntervalMs: options.pollIntervalMs ?? 1_000,
          onProgress: this.workers.progressed,
        }),
      );
    }
    this.storageFailureRetries = new StorageFailureRetries(
      this,
      options.storageRetryIntervalMs ?? 5_000,
    );
  }

  /** Loads checkpoints and starts every worker; does not wait for them to catch up. */
  async start(): Promise<void> {
    await this.workers.start();
    this.storageFailureRetries.start();
  }

  /** Lets events in hand finish and stops; pending waits resolve with whether they were reached. */
  async stop(): Promise<void> {
    await this.storageFailureRetries.stop();
    await this.workers.stop();
  }

  /**
   * Resolves true once every process manager has dealt with the log up to `position` (handled,
   * parked, or not concerned), or false after `timeoutMs`. Never rejects.
   */
  waitForPosition(position: number, timeoutMs: number): Promise<boolean> {
    return this.workers.waitForPosition(position, timeoutMs);
  }

  /** How far each process manager has dealt with the log. */
  status(): { name: string; position: number }[] {
    return this.workers.all().map((worker) => ({
      name: worker.processManager.name,
      position: worker.examined,
    }));
  }

  /** Parked events of this runner's process managers, in log order. */
  listParked(): Promise<ParkedEvent[]> {
    return this.documents.find<ParkedEvent>(
      PARKED_EVENTS,
      { processManager: { $in: this.workers.names() } },
      { sort: [['position', 1]] },
    );
  }

  /**
   * Handles a parked event once more. On success it is removed and the result is true; on
   * failure it stays parked with the new error and one more attempt, and the result is false.
   */
  async retryParked(id: string): Promise<boolean> {
    const parked = await this.documents.get<ParkedEvent>(PARKED_EVENTS, id);
    const worker = parked && this.workers.get(parked.processManager);
    if (parked === undefined || worker === undefined) {
      throw new Error(`no parked event ${id} of this runner's process managers`);
    }
    const [event] = await this.events.readStream(parked.streamId, {
      fromRevision: parked.revision,
      maxCount: 1,
    });
    if (event?.id !== parked.eventId) {
      throw new Error(`parked event ${id} is no longer in stream ${parked.streamId}`);
    }
    let writes: readonly DocumentWrite[];
    try {
      writes = (await worker.processManager.handle(event)) ?? [];
    } catch (error) {
      const again = parkedEvent(parked.processManager, event, error, parked.attempts + 1);
      await this.documents.write([{ kind: 'put', collection: PARKED_EVENTS, document: again }]);
      return false;
    }
    await this.documents.write([...writes, { kind: 'delete', collection: PARKED_EVENTS, id }]);
    return true;
  }
}
