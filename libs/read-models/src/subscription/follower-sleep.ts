import type { EventStore } from '#hawser/eventstore';
import { SharedLogReader, type Nap, type SleepingFollower } from './shared-log-reader.js';

/**
 * A caught-up follower's sleep in its process's shared log reader: until the log holds an
 * event it follows, `wake()` (a pause, a stop) or `timeoutMs`. Meanwhile the reader moves it
 * past the pages that hold none; its checkpoint follows at its next commit or once its idle
 * gap is reached, so a restart may examine a stretch again but never skips one.
 */
export class FollowerSleep {
  private nap: Nap | undefined;

  constructor(
    private readonly events: EventStore,
    private readonly timeoutMs: number,
  ) {}

  async sleep(follower: SleepingFollower): Promise<void> {
    const nap = SharedLogReader.of(this.events).sleep(follower, this.timeoutMs);
    this.nap = nap;
    await nap.woken;
    if (this.nap === nap) this.nap = undefined;
  }

  wake(): void {
    this.nap?.wake();
  }
}
