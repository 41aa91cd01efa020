import {
  BACKEND_STREAM_PREFIX,
  QUOTA_CLASS_STREAM_PREFIX,
  QUOTA_STREAM_PREFIX,
  SHARE_STREAM_PREFIX,
  shareTypeStream,
  USER_MESSAGE_STREAM_PREFIX,
} from '#hawser/domain';
import { createEventDecoder, type EventDecoder, type TypedEvent } from '#hawser/eventstore';
import {
  type CategoryEvents,
  createUpcasters,
  EVENT_CATALOGUE,
  type EventCategory,
} from './catalogue.js';

const upcasters = createUpcasters();

const decoderOf = <C extends EventCategory>(category: C): EventDecoder<CategoryEvents[C]> =>
  createEventDecoder<CategoryEvents[C]>(category, EVENT_CATALOGUE, upcasters);

/**
 * One decoder per stream category. Consumers decode where an event enters them (a projection's
 * or process manager's `handle`, a command handler's fold) and then switch on narrowed types.
 */
export const shareEvents = decoderOf('share');
export const shareTypeEvents = decoderOf('sharetype');
export const backendEvents = decoderOf('backend');
export const quotaEvents = decoderOf('quota');
export const userMessageEvents = decoderOf('message');

const BY_STREAM_PREFIX: readonly (readonly [string, EventDecoder<TypedEvent>])[] = [
  [SHARE_STREAM_PREFIX, shareEvents],
  [shareTypeStream(''), shareTypeEvents],
  [BACKEND_STREAM_PREFIX, backendEvents],
  [QUOTA_STREAM_PREFIX, quotaEvents],
  [QUOTA_CLASS_STREAM_PREFIX, quotaEvents],
  [USER_MESSAGE_STREAM_PREFIX, userMessageEvents],
];

/** The decoder of a stream's category (`share-…` → share events), for code that folds any stream. */
export const decoderOfStream = (streamId: string): EventDecoder<TypedEvent> | undefined =>
  BY_STREAM_PREFIX.find(([prefix]) => streamId.startsWith(prefix))?.[1];
