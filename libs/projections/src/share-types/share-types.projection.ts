import {
  evolveShareType,
  initialShareTypeState,
  type ShareTypeEvent,
  type ShareTypeState,
} from '#hawser/domain';
import type { Decoded } from '#hawser/eventstore';
import { singleStreamProjection } from '#hawser/read-models';
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

/** Share types (Manila's types API), folded with the share-type aggregate's own evolve. */
export const shareTypesProjection = singleStreamProjection<
  ShareTypeDocument,
  Decoded<ShareTypeEvent>
>({
  name: 'share-types',
  collection: SHARE_TYPES,
  filter: { streamPrefixes: [SHARE_TYPE_STREAM_PREFIX] },
  decode: (event) => shareTypeEvents.decode(event),
  documentId: (event) => event.streamId.slice(SHARE_TYPE_STREAM_PREFIX.length),
  evolve: (previous, event) => {
    const state = evolveShareType(previous?.state ?? initialShareTypeState(), event);
    if (state.status === 'deleted') return undefined;
    const time = timeOf(event, event.metadata.recordedAt);
    return {
      name: state.name,
      description: state.description,
      extra_specs: { ...state.extraSpecs },
      is_public: state.isPublic,
      projects: [...state.projects],
      created_at: previous?.created_at ?? time,
      updated_at: time,
      state,
    };
  },
});
