import {
  evolveShare,
  initialShareState,
  SHARE_STREAM_PREFIX,
  type ShareState,
} from '#hawser/domain';
import type { RecordedEvent } from '#hawser/eventstore';
import type { ProjectionContext } from '#hawser/read-models';
import { shareEvents } from '../../../../eventstore/decoders.js';

interface ShareStateDocument {
  id: string;
  revision: number;
  state: ShareState;
}

/**
 * Folds one share event into the share state a projection keeps in its own collection (so it
 * rebuilds alone), decoded and then folded with the domain's `evolve`. Undefined when the event was seen already.
 */
export const foldShareEvent = async (
  event: RecordedEvent,
  ctx: ProjectionContext,
  collection: string,
): Promise<{ before: ShareState; after: ShareState } | undefined> => {
  const shareId = event.streamId.slice(SHARE_STREAM_PREFIX.length);
  const previous = await ctx.get<ShareStateDocument>(collection, shareId);
  if (previous && previous.revision >= event.revision) return undefined;
  const before = previous?.state ?? initialShareState();
  const after = evolveShare(before, shareEvents.decode(event));
  if (after.kind === 'deleted') ctx.delete(collection, shareId);
  else ctx.put(collection, { id: shareId, revision: event.revision, state: after });
  return { before, after };
};
