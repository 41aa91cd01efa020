import {
  eventTypeFilter,
  excludeSystemEvents,
  streamNameFilter,
  type Filter,
} from '@kurrent/kurrentdb-client';
import { matchesEventFilter } from '../event-filter.js';
import type { EventFilter } from '../event-store.port.js';

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The server applies one filter per read, on stream names or on event types, never both.
 * Stream prefixes go to the server when given (they are the selective part: a category);
 * otherwise the event types, as an exact-match regex; otherwise system events are excluded.
 * `matchesFilter` then checks the whole filter on the client.
 */
export function serverFilter(filter: EventFilter | undefined): Filter {
  const prefixes = filter?.streamPrefixes ?? [];
  const types = filter?.eventTypes ?? [];
  if (prefixes.length > 0) return streamNameFilter({ prefixes: [...prefixes] });
  if (types.length > 0) {
    return eventTypeFilter({ regex: `^(?:${types.map(escapeRegex).join('|')})$` });
  }
  return excludeSystemEvents();
}

/** The port's filter, and no system events (`$`-prefixed types such as `$metadata`). */
export function matchesFilter(
  streamId: string,
  type: string,
  filter: EventFilter | undefined,
): boolean {
  return !type.startsWith('$') && matchesEventFilter(streamId, type, filter);
}
