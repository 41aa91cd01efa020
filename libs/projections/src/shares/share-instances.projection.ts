import {
  evolveShare,
  initialShareState,
  SHARE_STREAM_PREFIX,
  type ShareState,
  instancesOf,
} from '#hawser/domain';
import type { RecordedEvent } from '#hawser/eventstore';
import type { Projection, ProjectionContext } from '#hawser/read-models';
import {
  SHARE_INSTANCES,
  toShareInstanceDocument,
  type ShareInstanceDocument,
} from './share.documents.js';
import { shareEvents } from '../../../../eventstore/decoders.js';

export const SHARE_INSTANCE_STATES = 'share_instance_states';

interface ShareStateDocument {
  id: string;
  revision: number;
  state: ShareState;
}

/**
 * Share instances for admins (Manila's share-instances API) and for share nodes settling
 * operations at start-up. Its own projection, so the share listing rebuilds without it; it
 * keeps the folded share in a collection of its own for the same reason.
 */
export const shareInstancesProjection: Projection = {
  name: 'share-instances',
  collections: [SHARE_INSTANCES, SHARE_INSTANCE_STATES],
  filter: { streamPrefixes: [SHARE_STREAM_PREFIX] },
  // A share's instances (its replicas), for the API's per-share views and their batched reads.
  indexes: { [SHARE_INSTANCES]: [['share_id', 'created_at']] },
  async handle(recorded: RecordedEvent, ctx: ProjectionContext): Promise<void> {
    const event = shareEvents.decode(recorded);
    const shareId = event.streamId.slice(SHARE_STREAM_PREFIX.length);
    const previous = await ctx.get<ShareStateDocument>(SHARE_INSTANCE_STATES, shareId);
    if (previous && previous.revision >= event.revision) return;
    const before = previous?.state ?? initialShareState();
    const state = evolveShare(before, event);
    const current = new Set(instancesOf(state).map((i) => i.id));
    for (const instance of instancesOf(before)) {
      if (!current.has(instance.id)) ctx.delete(SHARE_INSTANCES, instance.id);
    }
    if (state.kind !== 'active') {
      ctx.delete(SHARE_INSTANCE_STATES, shareId);
      return;
    }
    ctx.put(SHARE_INSTANCE_STATES, { id: shareId, revision: event.revision, state });
    for (const instance of state.instances) {
      ctx.put(
        SHARE_INSTANCES,
        toShareInstanceDocument(state, instance, event.revision) satisfies ShareInstanceDocument,
      );
    }
  },
};
