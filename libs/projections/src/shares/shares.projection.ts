import { evolveShare, initialShareState, SHARE_STREAM_PREFIX, isActiveShare } from '#hawser/domain';
import type { RecordedEvent } from '#hawser/eventstore';
import type { Projection, ProjectionContext } from '#hawser/read-models';
import { SHARES, toShareRecord, type ShareRecord } from './share.documents.js';
import { shareEvents } from '../../../../eventstore/decoders.js';

/**
 * The share listing, as Manila's share API shows it. Folds each share stream with the domain's
 * own `evolve`, so the read model can never disagree with what the deciders see. One index: a
 * project's shares by time, what every non-admin listing and name lookup walks.
 */
export const sharesProjection: Projection = {
  name: 'shares',
  collections: [SHARES],
  filter: { streamPrefixes: [SHARE_STREAM_PREFIX] },
  indexes: { [SHARES]: [['project_id', 'created_at']] },
  async handle(recorded: RecordedEvent, ctx: ProjectionContext): Promise<void> {
    const event = shareEvents.decode(recorded);
    const shareId = event.streamId.slice(SHARE_STREAM_PREFIX.length);
    const previous = await ctx.get<ShareRecord>(SHARES, shareId);
    if (previous && previous.revision >= event.revision) return;
    const before = previous?.state ?? initialShareState();
    const state = evolveShare(before, event);
    if (state.kind === 'deleted') ctx.delete(SHARES, shareId);
    // A stream that holds only a refused request's fence (ReservationExpired) is no share.
    else if (isActiveShare(state)) ctx.put(SHARES, toShareRecord(state, event.revision));
  },
};
