import type { CommandHandler } from '#hawser/application';
import {
  derivedId,
  SHARE_STREAM_PREFIX,
  shareDecider,
  type ShareRequested,
  type ShareScheduled,
} from '#hawser/domain';
import type { RecordedEvent } from '#hawser/eventstore';
import type { ProcessManager } from '../runtime/process-manager.js';
import type { Placement } from './placement.port.js';

/**
 * Places every requested share: ShareRequested -> the scheduler -> ShareScheduled, or
 * ShareSchedulingFailed with Manila's "No valid host" message. Every ShareScheduled, whoever
 * recorded it, debits the chosen pool, so schedulers sharing a log do not double-book it.
 */
export const shareSchedulingProcessManager = (
  commands: CommandHandler,
  placement: Placement,
  clock: () => string = () => new Date().toISOString(),
): ProcessManager => ({
  name: 'share-scheduling',
  filter: {
    streamPrefixes: [SHARE_STREAM_PREFIX],
    eventTypes: ['ShareRequested', 'ShareScheduled'],
  },
  async handle(event: RecordedEvent): Promise<void> {
    if (event.type === 'ShareScheduled') {
      const data = event.data as ShareScheduled['data'];
      placement.consume(data.host, data.instanceId, data.size, Date.parse(data.scheduledAt));
      return;
    }
    const request = event.data as ShareRequested['data'];
    const decision = placement.place(request);
    const ctx = {
      commandId: derivedId(event.id, 'schedule'),
      causationId: event.id,
      correlationId: (event.metadata.$correlationId as string | undefined) ?? event.id,
      userId: 'scheduler',
    };
    await commands.handle(
      shareDecider,
      event.streamId,
      decision.placed
        ? {
            type: 'ScheduleShareInstance',
            instanceId: request.instanceId,
            host: decision.host,
            availabilityZone: decision.availabilityZone,
            now: clock(),
          }
        : {
            type: 'FailShareInstanceScheduling',
            instanceId: request.instanceId,
            message: decision.message,
            detail: decision.detail,
            now: clock(),
          },
      ctx,
      { retryOnConflict: 5 },
    );
  },
});
