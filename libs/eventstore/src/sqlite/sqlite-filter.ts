import type { EventFilter } from '../event-store.port.js';

export interface FilterClause {
  /** ' AND (...)' to append to a WHERE clause, or '' when the filter lets everything through. */
  readonly sql: string;
  readonly params: readonly string[];
  /** Same for every filter of the same shape, so prepared statements can be cached by it. */
  readonly shape: string;
}

/**
 * Stream prefixes are OR-ed, event types are OR-ed, and both must match when both are given.
 * An absent or empty list does not constrain. `instr(...) = 1` tests a prefix without the
 * escaping that LIKE or GLOB patterns would need.
 */
export function filterClause(filter: EventFilter | undefined): FilterClause {
  const prefixes = filter?.streamPrefixes ?? [];
  const types = filter?.eventTypes ?? [];
  const parts: string[] = [];
  if (prefixes.length > 0) {
    parts.push(`(${prefixes.map(() => 'instr(stream_id, ?) = 1').join(' OR ')})`);
  }
  if (types.length > 0) {
    parts.push(`type IN (${types.map(() => '?').join(', ')})`);
  }
  return {
    sql: parts.length === 0 ? '' : ` AND ${parts.join(' AND ')}`,
    params: [...prefixes, ...types],
    shape: `${prefixes.length}:${types.length}`,
  };
}
