import type { OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { EventStore } from '#hawser/eventstore';
import { ProcessManagerRunner, type ProcessManager } from '#hawser/process-managers';
import type { DocumentStore } from '#hawser/read-models';
import type { HawserConfig, ProjectorRole, WorkflowRunners } from '#hawser/platform';

/**
 * Runs some process managers in this process for as long as the application runs, registered
 * with the process's runners so admins can retry their parked events. Among several API
 * processes only the projector runs them, so each event is handled by one process.
 */
export abstract class ProcessManagerHost implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly runner: ProcessManagerRunner;

  protected constructor(
    events: EventStore,
    documents: DocumentStore,
    config: HawserConfig,
    workflows: WorkflowRunners,
    private readonly role: ProjectorRole,
    processManagers: readonly ProcessManager[],
  ) {
    this.runner = new ProcessManagerRunner(events, documents, [...processManagers], {
      storageRetryIntervalMs: config.storageRetryIntervalMs,
    });
    workflows.register(
      processManagers.map((pm) => pm.name),
      this.runner,
    );
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
