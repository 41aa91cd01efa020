import { copyTreeIncremental, type CopyTreeOptions } from './tree-operations.js';

interface CopyJob {
  doneBytes: number;
  readonly totalBytes: number;
  readonly abort: AbortController;
  finished: Promise<void>;
}

export interface CopyJobProgress {
  readonly doneBytes: number;
  readonly totalBytes: number;
  readonly percent: number;
}

/**
 * Background copies of this process, by share instance. A copy that is stopped (close) or
 * dies with the process leaves its marker behind and is resumed by ensureShares.
 */
export class CopyJobs {
  private readonly jobs = new Map<string, CopyJob>();

  constructor(private readonly options: Pick<CopyTreeOptions, 'chunkBytes' | 'bytesPerSecond'>) {}

  start(
    instanceId: string,
    source: string,
    target: string,
    totalBytes: number,
    onFinished: (error: unknown) => Promise<void>,
  ): void {
    if (this.jobs.has(instanceId)) return;
    const abort = new AbortController();
    const job: CopyJob = {
      doneBytes: 0,
      totalBytes,
      abort,
      finished: Promise.resolve(),
    };
    const run = async (): Promise<void> => {
      let failure: unknown = null;
      try {
        await copyTreeIncremental(source, target, {
          ...this.options,
          signal: abort.signal,
          onProgress: (done) => {
            job.doneBytes = done;
          },
        });
      } catch (error) {
        failure = error;
      }
      // A stopped copy is neither a success nor a failure: its marker stays for the restart.
      if (!abort.signal.aborted) await onFinished(failure).catch(() => undefined);
      this.jobs.delete(instanceId);
    };
    job.finished = run();
    this.jobs.set(instanceId, job);
  }

  progress(instanceId: string): CopyJobProgress | null {
    const job = this.jobs.get(instanceId);
    if (!job) return null;
    const percent =
      job.totalBytes === 0 ? 99 : Math.min(99, Math.floor((job.doneBytes / job.totalBytes) * 100));
    return { doneBytes: job.doneBytes, totalBytes: job.totalBytes, percent };
  }

  isRunning(instanceId: string): boolean {
    return this.jobs.has(instanceId);
  }

  /** Waits for one copy to end (tests, and deleting a share mid-copy). */
  async wait(instanceId: string): Promise<void> {
    await this.jobs.get(instanceId)?.finished;
  }

  async stop(instanceId: string): Promise<void> {
    const job = this.jobs.get(instanceId);
    if (!job) return;
    job.abort.abort();
    await job.finished;
  }

  async stopAll(): Promise<void> {
    const jobs = [...this.jobs.values()];
    for (const job of jobs) job.abort.abort();
    await Promise.all(jobs.map((job) => job.finished));
  }
}
