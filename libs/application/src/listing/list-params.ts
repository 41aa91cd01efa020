import { badRequest, toBoolean } from '#hawser/api-contracts';
import { ownValue } from '#hawser/domain';

/** A non-negative integer query parameter (limit, offset, size), else Manila's 400. */
export const nonNegativeParam = (name: string, value: string | undefined): number | undefined => {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw badRequest(`${name} param must be an integer`);
  return Number(value);
};

/** A filter Manila reads as a Python-literal dict (`{'k': 'v'}`); anything else is a 400. */
export const parseDictFilter = (name: string, text: string): Record<string, string> => {
  try {
    const parsed: unknown = JSON.parse(text.replace(/'/g, '"'));
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      return Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, String(v)]));
    }
  } catch {
    // fall through to the 400 below
  }
  throw badRequest(`Invalid ${name} filter: ${text}`);
};

/** Manila's `metadata` filter is a Python-literal dict: {'k': 'v'}. */
export const parseMetadataFilter = (text: string): Record<string, string> =>
  parseDictFilter('metadata', text);

/**
 * Whether a user map (metadata, a type's extra specs) holds every wanted key with the wanted
 * value. Matched here rather than in the read-model query: a key may hold any character
 * (`my-key`, `a.b`), which a field path cannot address, and only the map's own keys count
 * (`constructor` is not one until set).
 */
export const holdsEveryPair = (
  map: Readonly<Record<string, string>>,
  wanted: Readonly<Record<string, string>>,
): boolean => Object.entries(wanted).every(([key, value]) => ownValue(map, key) === value);

/**
 * A boolean query parameter as Manila's `get_bool_from_api_params` reads it: absent is false,
 * a word other than oslo's boolean words is a 400.
 */
export const booleanParam = (name: string, value: string | undefined): boolean => {
  if (value === undefined) return false;
  const parsed = toBoolean(value);
  if (parsed === undefined) {
    throw badRequest(`Invalid value ${value} for ${name}. Expecting a boolean.`);
  }
  return parsed;
};

/** Manila's `is_all_tenants`: present but empty means yes, otherwise a strict boolean. */
export const allTenantsParam = (value: string | undefined): boolean =>
  value === '' ? true : booleanParam('all_tenants', value);
