import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import type { EventStore, RecordedEvent } from '#hawser/eventstore';
import { EVENT_STORE } from '#hawser/platform';
import { badRequest } from '../http/manila-error.js';
import { Policy } from '../policy/route-policy.decorators.js';

const MAX_PAGE = 1000;

/** Who did what, when, caused by what: one event of the log as admins read it. */
export const auditView = (e: RecordedEvent) => ({
  position: e.position,
  stream_id: e.streamId,
  revision: e.revision,
  id: e.id,
  type: e.type,
  schema_version: e.metadata.schemaVersion,
  recorded_at: e.metadata.recordedAt,
  user_id: e.metadata.userId ?? null,
  project_id: e.metadata.projectId ?? null,
  request_id: e.metadata.requestId ?? null,
  command_id: e.metadata.commandId ?? null,
  correlation_id: e.metadata.$correlationId ?? null,
  causation_id: e.metadata.$causationId ?? null,
  data: e.data,
});

const pageSize = (limit: string | undefined): number => {
  if (limit === undefined) return 100;
  if (!/^\d+$/.test(limit) || Number(limit) < 1 || Number(limit) > MAX_PAGE) {
    throw badRequest(`limit must be an integer from 1 to ${MAX_PAGE}`);
  }
  return Number(limit);
};

const position = (name: string, value: string | undefined): number | undefined => {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw badRequest(`${name} must be a non-negative integer`);
  return Number(value);
};

/** Hawser's audit trail over HTTP (admin only): the global log and single streams, page by page. */
@Controller('hawser/v1')
export class AuditController {
  constructor(@Inject(EVENT_STORE) private readonly events: EventStore) {}

  @Get('events')
  @Policy('hawser:events:get_all')
  async log(
    @Query('after') after?: string,
    @Query('limit') limit?: string,
    @Query('stream_prefix') streamPrefix?: string,
    @Query('event_type') eventType?: string,
  ) {
    const size = pageSize(limit);
    const events = await this.events.readAll({
      after: position('after', after),
      maxCount: size,
      filter: {
        ...(streamPrefix && { streamPrefixes: [streamPrefix] }),
        ...(eventType && { eventTypes: eventType.split(',') }),
      },
    });
    const last = events[events.length - 1];
    return {
      events: events.map(auditView),
      next_after: events.length === size && last ? last.position : null,
    };
  }

  @Get('streams/:streamId')
  @Policy('hawser:streams:get')
  async stream(
    @Param('streamId') streamId: string,
    @Query('from_revision') fromRevision?: string,
    @Query('limit') limit?: string,
    @Query('direction') direction?: string,
  ) {
    if (direction !== undefined && direction !== 'forwards' && direction !== 'backwards') {
      throw badRequest('direction must be forwards or backwards');
    }
    const events = await this.events.readStream(streamId, {
      direction: direction ?? 'forwards',
      fromRevision: position('from_revision', fromRevision),
      maxCount: pageSize(limit),
    });
    return { stream_id: streamId, events: events.map(auditView) };
  }
}
