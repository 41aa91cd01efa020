import { badRequest, ManilaHttpError } from '#hawser/api-contracts';

/** Reading the loose bodies of Manila's manage and action requests, as its controllers do. */

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Manila's HTTPUnprocessableEntity, which its manage controllers answer for a bad body. */
export const unprocessable = (message: string) => new ManilaHttpError(422, message);

/** The first of `keys` the body gives, which must be a string; null when none is given. */
export const optionalText = (data: Record<string, unknown>, ...keys: string[]): string | null => {
  for (const key of keys) {
    const value = data[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') throw badRequest(`${key} must be a string.`);
    return value;
  }
  return null;
};

/** A dictionary of the body (`driver_options`, `metadata`), its values as text; `{}` if absent. */
export const stringDictionary = (value: unknown, name: string): Record<string, string> => {
  if (value === undefined || value === null) return {};
  if (!isObject(value)) throw badRequest(`${name} must be a dictionary.`);
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, String(v)]));
};
