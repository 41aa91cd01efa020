const TRUE_WORDS = new Set(['1', 't', 'true', 'on', 'y', 'yes']);
const FALSE_WORDS = new Set(['0', 'f', 'false', 'off', 'n', 'no']);

/**
 * oslo.utils' bool_from_string: a boolean stays itself, anything else is read as text
 * (numbers as Python prints them); `fallback` is returned for an unrecognised word.
 */
export const boolFromString = <T>(subject: unknown, fallback: T): boolean | T => {
  if (typeof subject === 'boolean') return subject;
  const word = pythonStr(subject).trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return fallback;
};

/** The strict form: undefined where oslo raises ValueError. */
export const strictBoolFromString = (subject: unknown): boolean | undefined =>
  boolFromString(subject, undefined);

/** Python's str() for the scalar values capability maps hold. */
export const pythonStr = (value: unknown): string => {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number' && Number.isInteger(value)) return String(value);
  return String(value);
};
