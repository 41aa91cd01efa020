import { Inject, Injectable } from '@nestjs/common';
import { CommandHandler } from '#hawser/application';
import type { EventStore } from '#hawser/eventstore';
import { quotaReleaseProcessManager } from '#hawser/process-managers';
import type { DocumentStore } from '#hawser/read-models';
import {
  DOCUMENT_STORE,
  EVENT_STORE,
  HAWSER_CONFIG,
  ProjectorRole,
  WorkflowRunners,
  type HawserConfig,
} from '#hawser/platform';
import { ProcessManagerHost } from '../workflows/process-manager-host.js';

/** Runs the quota-release process manager in the process that serves the quota API. */
@Injectable()
export class QuotaReleaseWorkflow extends ProcessManagerHost {
  constructor(
    @Inject(EVENT_STORE) events: EventStore,
    @Inject(DOCUMENT_STORE) documents: DocumentStore,
    @Inject(HAWSER_CONFIG) config: HawserConfig,
    commands: CommandHandler,
    workflows: WorkflowRunners,
    role: ProjectorRole,
  ) {
    super(events, documents, config, workflows, role, [
      quotaReleaseProcessManager(events, commands),
    ]);
  }
}
