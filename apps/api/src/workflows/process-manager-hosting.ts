import { Inject, Injectable } from '@nestjs/common';
import type { EventStore } from '#hawser/eventstore';
import { ProcessManagerRunner, type ProcessManager } from '#hawser/process-managers';
import type { DocumentStore } from '#hawser/read-models';
import {
  DOCUMENT_STORE,
  EVENT_STORE,
  HAWSER_CONFIG,
  ProjectorRole,
  WorkflowRunners,
  type HawserConfig,
} from '#hawser/platform';

/**
 * What every process-manager host of the API is given, injected in one place: the stores, the
 * configuration, the process's runners (where admins retry parked events) and the projector
 * role (among several API processes only the projector runs process managers).
 */
@Injectable()
export class ProcessManagerHosting {
  constructor(
    @Inject(EVENT_STORE) readonly events: EventStore,
    @Inject(DOCUMENT_STORE) readonly documents: DocumentStore,
    @Inject(HAWSER_CONFIG) readonly config: HawserConfig,
    readonly role: ProjectorRole,
    private readonly workflows: WorkflowRunners,
  ) {}

  /** A runner for these process managers, registered with the process's runners. */
  runnerFor(processManagers: readonly ProcessManager[]): ProcessManagerRunner {
    const runner = new ProcessManagerRunner(this.events, this.documents, [...processManagers], {
      storageRetryIntervalMs: this.config.storageRetryIntervalMs,
    });
    this.workflows.register(
      processManagers.map((pm) => pm.name),
      runner,
    );
    return runner;
  }
}
