import type { Identified } from '../document-store.port.js';

/**
 * How a document is kept in its table's `doc` column: SQLite's binary JSON (JSONB), without its
 * id, which the `id` column holds. JSONB is about a tenth smaller than the text, and the
 * expression indexes and filters read it without parsing it; the id was stored twice.
 *
 * A document written as JSON text (before) keeps its id and is read as it is: text or blob
 * tells the two apart, so a store needs no migration, and a rebuild rewrites every document.
 */

/** The value the insert binds the document's text to. */
export const STORED_DOC_SQL = 'jsonb(?)';

/** What a read selects for each document: [id, JSON text, 1 when stored without its id]. */
export const READ_COLUMNS_SQL =
  "id, CASE WHEN typeof(doc) = 'blob' THEN json(doc) ELSE doc END, typeof(doc) = 'blob'";

export type StoredRow = [id: string, text: string, withoutId: number];

/** The document's JSON text without its id (kept in the `id` column). */
export const storedText = (document: Identified): string => {
  const text = JSON.stringify(document);
  // The id comes first in nearly every document: cut it from the text rather than copy the object.
  const head = `{"id":${JSON.stringify(document.id)}`;
  if (text.startsWith(head))
    return text.length === head.length + 1 ? '{}' : `{${text.slice(head.length + 1)}`;
  const { id: _id, ...rest } = document;
  return JSON.stringify(rest);
};

/** The document a read row stands for, its id first as it was written. */
export const documentOf = <T>([id, text, withoutId]: StoredRow): T => {
  if (!withoutId) return JSON.parse(text) as T;
  const rest = text === '{}' ? '}' : `,${text.slice(1)}`;
  return JSON.parse(`{"id":${JSON.stringify(id)}${rest}`) as T;
};
