import { setTimeout as delay } from 'node:timers/promises';
import { Logger } from '@nestjs/common';
import type { ParkedEvent } from './parked-event.js';

/** What the retries need of a runner: its parked events, and one more try of one of them. */
export interface ParkedEvents {
  listParked(): Promise<ParkedEvent[]>;
  retryParked(id: string): Promise<boolean>;
}

/**
 * Retries the events a runner parked because its store could not write (a full disk, a
 * read-only file system), every `intervalMs`, in log order, stopping at the first that fails
 * again: the store is still failing. So work parked while the disk was full goes on by itself
 * once space is back. Events parked for any other reason wait for an admin's retry.
 */
export class StorageFailureRetries {
  private readonly logger = new Logger('process-managers');
  private readonly abort = new AbortController();
  private loop: Promise<void> | undefined;

  constructor(
    private readonly parked: ParkedEvents,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    this.loop ??= this.run();
  }

  /** Lets a retry in hand finish, then stops. */
  async stop(): Promise<void> {
    this.abort.abort();
    await this.loop;
  }

  /** One round: how many parked events went through. */
  async retryOnce(): Promise<number> {
    const parked = (await this.parked.listParked()).filter((p) => p.storageFailure);
    let retried = 0;
    for (const event of parked) {
      if (this.abort.signal.aborted || !(await this.parked.retryParked(event.id))) break;
      retried += 1;
    }
    if (retried > 0) {
      this.logger.log(`${retried} events parked by a storage failure went through on retry`);
    }
    return retried;
  }

  private async run(): Promise<void> {
    while (!this.abort.signal.aborted) {
      await delay(this.intervalMs, undefined, { signal: this.abort.signal }).catch(() => undefined);
      if (this.abort.signal.aborted) return;
      // The store may fail the listing or the parked event's update too: next round.
      await this.retryOnce().catch((error: unknown) =>
        this.logger.warn(`retrying parked events failed: ${String(error)}`),
      );
    }
  }
}
