import { createEventDecoder, type EventDecoder } from '#hawser/eventstore';
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
