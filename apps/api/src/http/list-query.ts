import { badRequest } from './manila-error.js';

/** A non-negative integer query parameter (limit, offset, size), else Manila's 400. */
export const nonNegativeParam = (name: string, value: string | undefined): number | undefined => {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw badRequest(`${name} param must be an integer`);
  return Number(value);
};

/** Manila's `metadata` filter is a Python-literal dict: {'k': 'v'}. */
export const parseMetadataFilter = (text: string): Record<string, string> => {
  try {
    const parsed: unknown = JSON.parse(text.replace(/'/g, '"'));
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      return Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, String(v)]));
    }
  } catch {
    // fall through to the 400 below
  }
  throw badRequest(`Invalid metadata filter: ${text}`);
};
