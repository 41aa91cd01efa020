import type { ProcessManagerRunner } from '#hawser/process-managers';

/**
 * The process-manager runners of this process, so admin endpoints can retry a parked event
 * with the runner that owns its process manager, and metrics can show how far each has read.
 */
export class WorkflowRunners {
  private readonly runners = new Map<string, ProcessManagerRunner>();

  register(processManagerNames: readonly string[], runner: ProcessManagerRunner): void {
    for (const name of processManagerNames) this.runners.set(name, runner);
  }

  runnerFor(processManagerName: string): ProcessManagerRunner | undefined {
    return this.runners.get(processManagerName);
  }

  /** Every runner once, for what spans them all (their lag behind the log). */
  all(): ProcessManagerRunner[] {
    return [...new Set(this.runners.values())];
  }
}
