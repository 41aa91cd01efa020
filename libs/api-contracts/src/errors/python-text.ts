/**
 * Python's str() of a JSON value (its repr() inside a list or a dict): how Manila's messages
 * print a value they refuse, such as `None` for null or `['a']` for a list.
 */
export const pythonText = (value: unknown, nested = false): string => {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'string') return nested ? `'${value}'` : value;
  if (Array.isArray(value)) return `[${value.map((item) => pythonText(item, true)).join(', ')}]`;
  if (typeof value === 'object') {
    const members = Object.entries(value).map(
      ([key, item]) => `'${key}': ${pythonText(item, true)}`,
    );
    return `{${members.join(', ')}}`;
  }
  return String(value);
};

/**
 * Python's int() of a JSON value, as Manila casts a number it is given: booleans are 0 and 1,
 * other numbers lose their fraction, text must be an integer's digits. Undefined where int()
 * raises.
 */
export const pythonInt = (value: unknown): number | undefined => {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number') return Math.trunc(value);
  if (typeof value === 'string' && /^\s*[-+]?\d+(_\d+)*\s*$/.test(value)) {
    return Number(value.trim().replaceAll('_', ''));
  }
  return undefined;
};
