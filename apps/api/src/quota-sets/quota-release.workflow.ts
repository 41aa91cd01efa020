import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { CommandHandler } from '#hawser/application';
import type { EventStore } from '#hawser/eventstore';
import { ProcessManagerRunner, quotaReleaseProcessManager } from '#hawser/process-managers';
import type { DocumentStore } from '#hawser/read-models';
import { DOCUMENT_STORE, EVENT_STORE, WorkflowRunners } from '#hawser/platform';

/** Runs the quota-release process manager in the process that serves the quota API. */
@Injectable()
export class QuotaReleaseWorkflow implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly runner: ProcessManagerRunner;

  constructor(
    @Inject(EVENT_STORE) events: EventStore,
    @Inject(DOCUMENT_STORE) documents: DocumentStore,
    commands: CommandHandler,
    workflows: WorkflowRunners,
  ) {
    const processManagers = [quotaReleaseProcessManager(events, commands)];
    this.runner = new ProcessManagerRunner(events, documents, processManagers);
    workflows.register(
      processManagers.map((pm) => pm.name),
      this.runner,
    );
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.runner.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.runner.stop();
  }
}
