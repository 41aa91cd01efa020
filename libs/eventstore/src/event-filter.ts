import type { EventFilter } from './event-store.port.js';

/**
 * The port's filter applied to one event, as the stores apply it when reading: any of the
 * stream prefixes and any of the event types, both when both are given; an absent or empty
 * list does not constrain. For readers that filter a page read once for several followers.
 */
export function matchesEventFilter(
  streamId: string,
  type: string,
  filter: EventFilter | undefined,
): boolean {
  const prefixes = filter?.streamPrefixes ?? [];
  const types = filter?.eventTypes ?? [];
  if (prefixes.length > 0 && !prefixes.some((prefix) => streamId.startsWith(prefix))) {
    return false;
  }
  return types.length === 0 || types.includes(type);
}
