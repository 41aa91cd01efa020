import { Controller, Get, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { PARKED_EVENTS, type ParkedEvent } from '#hawser/process-managers';
import type { DocumentStore } from '#hawser/read-models';
import { DOCUMENT_STORE, WorkflowRunners } from '#hawser/platform';
import { ManilaHttpError, notFoundError } from '../http/manila-error.js';
import { Policy } from '../policy/route-policy.decorators.js';

const view = (p: ParkedEvent) => ({
  id: p.id,
  process_manager: p.processManager,
  event_id: p.eventId,
  event_type: p.eventType,
  stream_id: p.streamId,
  revision: p.revision,
  position: p.position,
  error: p.error,
  storage_failure: p.storageFailure ?? null,
  attempts: p.attempts,
  parked_at: p.parkedAt,
});

/** Events a workflow gave up on after its retries: visible to admins, and retried on demand. */
@Controller('hawser/v1/parked-events')
export class ParkedEventsController {
  constructor(
    @Inject(DOCUMENT_STORE) private readonly documents: DocumentStore,
    private readonly workflows: WorkflowRunners,
  ) {}

  @Get()
  @Policy('hawser:parked_events:get_all')
  async list() {
    const parked = await this.documents.find<ParkedEvent>(
      PARKED_EVENTS,
      {},
      {
        sort: [['position', 1]],
      },
    );
    return { parked_events: parked.map(view) };
  }

  /** Handles the event once more; 200 with `retried: true` when it went through this time. */
  @Post(':id/retry')
  @HttpCode(200)
  @Policy('hawser:parked_events:retry')
  async retry(@Param('id') id: string) {
    const parked = await this.documents.get<ParkedEvent>(PARKED_EVENTS, id);
    if (!parked) throw notFoundError(`Parked event ${id} could not be found.`);
    const runner = this.workflows.runnerFor(parked.processManager);
    if (!runner) {
      throw new ManilaHttpError(
        409,
        `Process manager ${parked.processManager} does not run in this process; retry it where it runs.`,
      );
    }
    const retried = await runner.retryParked(id);
    return {
      retried,
      ...(retried
        ? {}
        : {
            parked_event: view(
              (await this.documents.get<ParkedEvent>(PARKED_EVENTS, id)) as ParkedEvent,
            ),
          }),
    };
  }
}
