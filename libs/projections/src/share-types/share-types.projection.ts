import {
  evolveShareType,
  initialShareTypeState,
  type ShareTypeEvent,
  type ShareTypeState,
} from '#hawser/domain';
import type { RecordedEvent } from '#hawser/eventstore';
import type { Projection, ProjectionContext } from '#hawser/read-models';
import { shareTypeEvents } from '../../../../eventstore/decoders.js';

export const SHARE_TYPES = 'share_types';
export const SHARE_TYPE_STREAM_PREFIX = 'sharetype-';

export interface ShareTypeDocument {
  id: string;
  revision: number;
  name: string;
  description: string | null;
  extra_specs: Record<string, string>;
  is_public: boolean;
  /** Projects given access to a private type. */
  projects: string[];
  created_at: string;
  updated_at: string;
  state: ShareTypeState;
}

/** When the event changed the type; access changes carry no time of their own. */
const timeOf = (event: ShareTypeEvent, fallback: string): string => {
  switch (event.type) {
    case 'ShareTypeCreated':
      return event.data.createdAt;
    case 'ShareTypeUpdated':
    case 'ShareTypeExtraSpecsSet':
    case 'ShareTypeExtraSpecUnset':
      return event.data.updatedAt;
    case 'ShareTypeDeleted':
      return event.data.deletedAt;
    case 'ShareTypeAccessAdded':
    case 'ShareTypeAccessRemoved':
      return fallback;
  }
};

export const shareTypesProjection: Projection = {
  name: 'share-types',
  collections: [SHARE_TYPES],
  filter: { streamPrefixes: [SHARE_TYPE_STREAM_PREFIX] },
  async handle(recorded: RecordedEvent, ctx: ProjectionContext): Promise<void> {
    const event = shareTypeEvents.decode(recorded);
    const id = event.streamId.slice(SHARE_TYPE_STREAM_PREFIX.length);
    const previous = await ctx.get<ShareTypeDocument>(SHARE_TYPES, id);
    if (previous && previous.revision >= event.revision) return;
    const state = evolveShareType(previous?.state ?? initialShareTypeState(), event);
    if (state.status === 'deleted') {
      await ctx.delete(SHARE_TYPES, id);
      return;
    }
    const time = timeOf(event, event.metadata.recordedAt);
    await ctx.put(SHARE_TYPES, {
      id,
      revision: event.revision,
      name: state.name,
      description: state.description,
      extra_specs: { ...state.extraSpecs },
      is_public: state.isPublic,
      projects: [...state.projects],
      created_at: previous?.created_at ?? time,
      updated_at: time,
      state,
    } satisfies ShareTypeDocument);
  },
};
