import type { CommandHandler } from '#hawser/application';
import {
  derivedId,
  quotaDecider,
  quotaStream,
  SHARE_STREAM_PREFIX,
  type ShareDeleted,
  type ShareRequested,
} from '#hawser/domain';
import type { EventStore, RecordedEvent } from '#hawser/eventstore';
import type { ProcessManager } from '../runtime/process-manager.js';

/**
 * A deleted share stops counting against its project's quota: ShareDeleted -> ReleaseQuota on
 * `quota-<project>` for the share's holder id. The project is the one the share was requested
 * in (its stream's first event), whoever deleted it. The command id derives from the event, and
 * the quota releases a holder once, so a replay releases nothing twice.
 */
export const quotaReleaseProcessManager = (
  events: EventStore,
  commands: CommandHandler,
  clock: () => string = () => new Date().toISOString(),
): ProcessManager => ({
  name: 'quota-release',
  filter: { streamPrefixes: [SHARE_STREAM_PREFIX], eventTypes: ['ShareDeleted'] },
  async handle(event: RecordedEvent): Promise<void> {
    const [first] = await events.readStream(event.streamId, { maxCount: 1 });
    if (first?.type !== 'ShareRequested') return;
    const { projectId } = first.data as ShareRequested['data'];
    const { shareId } = event.data as ShareDeleted['data'];
    await commands.handle(
      quotaDecider,
      quotaStream(projectId),
      { type: 'ReleaseQuota', projectId, holderId: shareId, now: clock() },
      {
        commandId: derivedId(event.id, 'release-quota'),
        causationId: event.id,
        correlationId: (event.metadata.$correlationId as string | undefined) ?? event.id,
        userId: 'quota',
        projectId,
      },
      { retryOnConflict: 50 },
    );
  },
});
