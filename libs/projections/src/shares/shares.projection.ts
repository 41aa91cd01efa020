import {
  evolveShare,
  initialShareState,
  SHARE_STREAM_PREFIX,
  type ShareEvent,
} from '#hawser/domain';
import type { RecordedEvent } from '#hawser/eventstore';
import type { Projection, ProjectionContext } from '#hawser/read-models';
import {
  SHARE_INSTANCES,
  SHARES,
  toShareDocument,
  toShareInstanceDocument,
  type ShareDocument,
} from './share.documents.js';

/**
 * Shares and their instances, as Manila's listings show them. Folds each share stream with the
 * domain's own `evolve`, so the read model can never disagree with what the deciders see.
 */
export const sharesProjection: Projection = {
  name: 'shares',
  collections: [SHARES, SHARE_INSTANCES],
  filter: { streamPrefixes: [SHARE_STREAM_PREFIX] },
  indexes: {
    [SHARES]: [['project_id', 'created_at'], ['created_at'], ['name'], ['share_type_id']],
    [SHARE_INSTANCES]: [['share_id'], ['host']],
  },
  async handle(event: RecordedEvent, ctx: ProjectionContext): Promise<void> {
    const shareId = event.streamId.slice(SHARE_STREAM_PREFIX.length);
    const previous = await ctx.get<ShareDocument>(SHARES, shareId);
    if (previous && previous.revision >= event.revision) return;
    const before = previous?.state ?? initialShareState();
    const state = evolveShare(before, { type: event.type, data: event.data } as ShareEvent);

    const current = new Set(state.instances.map((i) => i.id));
    for (const instance of before.instances) {
      if (!current.has(instance.id)) await ctx.delete(SHARE_INSTANCES, instance.id);
    }
    if (state.lifecycle === 'deleted') {
      await ctx.delete(SHARES, shareId);
      return;
    }
    await ctx.put(SHARES, toShareDocument(state, event.revision));
    for (const instance of state.instances) {
      await ctx.put(SHARE_INSTANCES, toShareInstanceDocument(state, instance, event.revision));
    }
  },
};
