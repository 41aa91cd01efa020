import type { OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { ProcessManager, ProcessManagerRunner } from '#hawser/process-managers';
import type { ProjectorRole } from '#hawser/platform';
import type { ProcessManagerHosting } from './process-manager-hosting.js';

/**
 * Runs some process managers in this process for as long as the application runs, registered
 * with the process's runners so admins can retry their parked events. Among several API
 * processes only the projector runs them, so each event is handled by one process.
 */
export abstract class ProcessManagerHost implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly runner: ProcessManagerRunner;
  private readonly role: ProjectorRole;

  protected constructor(
    hosting: ProcessManagerHosting,
    processManagers: readonly ProcessManager[],
  ) {
    this.role = hosting.role;
    this.runner = hosting.runnerFor(processManagers);
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.role.whenActive(() => this.start());
  }

  /** What runs while this process is the projector. */
  protected async start(): Promise<void> {
    await this.runner.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.runner.stop();
  }
}
