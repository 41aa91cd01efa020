import type { EventFilter } from '../event-store.port.js';

export interface FilterClause {
  /** ' AND (...)' to append to a WHERE clause, or '' when the filter lets everything through. */
  readonly sql: string;
  readonly params: readonly string[];
  /** Same for every filter of the same shape, so prepared statements can be cached by it. */
  readonly shape: string;
}

const NO_FILTER: FilterClause = { sql: '', params: [], shape: '0:0' };
/** Followers read with the same filter object page after page: its clause is built once. */
const clauses = new WeakMap<EventFilter, FilterClause>();

/**
 * Stream prefixes are OR-ed, event types are OR-ed, and both must match when both are given.
 * An absent or empty list does not constrain. `instr(...) = 1` tests a prefix without the
 * escaping that LIKE or GLOB patterns would need. A filter's lists are read-only: its clause is
 * kept for as long as the filter object lives.
 */
export function filterClause(filter: EventFilter | undefined): FilterClause {
  if (filter === undefined) return NO_FILTER;
  let clause = clauses.get(filter);
  if (clause === undefined) {
    clause = buildClause(filter);
    clauses.set(filter, clause);
  }
  return clause;
}

function buildClause(filter: EventFilter): FilterClause {
  const prefixes = filter.streamPrefixes ?? [];
  const types = filter.eventTypes ?? [];
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
