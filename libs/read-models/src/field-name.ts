/** Letters, digits and underscores, dotted for nested fields: safe to inline into a JSON path. */
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*$/;

/** Rejects field names that filters, sorts and indexes cannot address safely. */
export function assertFieldName(field: string): void {
  if (!FIELD_NAME.test(field)) throw new Error(`unsupported field name: ${JSON.stringify(field)}`);
}

/**
 * Reads a dotted field of a document; undefined when any step is missing. Only own keys count,
 * as in the stored JSON: a document without `constructor` has no such field.
 */
export function fieldValue(document: object, field: string): unknown {
  let value: unknown = document;
  for (const step of field.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, step))
      return undefined;
    value = (value as Record<string, unknown>)[step];
  }
  return value;
}

/** The shape of a condition: a plain value means equality, an object names one operator. */
export function operatorOf(condition: object): [operator: string, operand: unknown] {
  const entries = Object.entries(condition);
  const [entry] = entries;
  if (entries.length !== 1 || entry === undefined) {
    throw new Error(`a field condition names exactly one operator: ${JSON.stringify(condition)}`);
  }
  return entry;
}

/** A LIKE pattern as an anchored regular expression source (`%` any run, `_` one character). */
export function likeToRegExpSource(pattern: string): string {
  let source = '';
  for (const char of pattern) {
    if (char === '%') source += '[\\s\\S]*';
    else if (char === '_') source += '[\\s\\S]';
    else source += char.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return `^${source}$`;
}
