import { Inject, Injectable } from '@nestjs/common';
import { CommandHandler } from '#hawser/application';
import type { EventStore } from '#hawser/eventstore';
import { quotaReleaseProcessManager } from '#hawser/process-managers';
import type { DocumentStore } from '#hawser/read-models';
import { DOCUMENT_STORE, EVENT_STORE, ProjectorRole, WorkflowRunners } from '#hawser/platform';
import { ProcessManagerHost } from '../workflows/process-manager-host.js';

/** Runs the quota-release process manager in the process that serves the quota API. */
@Injectable()
export class QuotaReleaseWorkflow extends ProcessManagerHost {
  constructor(
    @Inject(EVENT_STORE) events: EventStore,
    @Inject(DOCUMENT_STORE) documents: DocumentStore,
    commands: CommandHandler,
    workflows: WorkflowRunners,
    role: ProjectorRole,
  ) {
    super(events, documents, workflows, role, [quotaReleaseProcessManager(events, commands)]);
  }
}
