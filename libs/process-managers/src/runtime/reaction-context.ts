import type { CommandContext } from '#hawser/application';
import { derivedId } from '#hawser/domain';
import type { RecordedEvent } from '#hawser/eventstore';

/**
 * The context of a command sent in reaction to `event`: its id derived from the event and
 * `purpose` (the same on every replay), the event as its cause, the event's correlation carried on.
 */
export const reactionContext = (
  event: RecordedEvent,
  purpose: string,
  userId: string,
): CommandContext => ({
  commandId: derivedId(event.id, purpose),
  causationId: event.id,
  correlationId: (event.metadata.$correlationId as string | undefined) ?? event.id,
  userId,
});
