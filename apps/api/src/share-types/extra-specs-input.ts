import { badRequest } from '../http/manila-error.js';
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Manila accepts JSON booleans as extra-spec values and stores them as Python's `str()` of them,
 * `True`/`False` (db `_metadata_refs`). The manila CLI relies on it: `type-create NAME false`
 * sends `"driver_handles_share_servers": false`. Other values are left for validation.
 */
export const withBooleanSpecsAsText = (part: unknown): unknown => {
  if (!isRecord(part) || !isRecord(part.extra_specs)) return part;
  const specs = Object.fromEntries(
    Object.entries(part.extra_specs).map(([key, value]) => [
      key,
      typeof value === 'boolean' ? (value ? 'True' : 'False') : value,
    ]),
  );
  return { ...part, extra_specs: specs };
};

/** The body of `PUT /types/{id}/extra_specs/{key}`: exactly `{key: value}`, else Manila's 400s. */
export const oneExtraSpec = (body: unknown, key: string): Record<string, unknown> => {
  if (!isRecord(body) || Object.keys(body).length === 0) throw badRequest('Request body empty');
  if (!Object.hasOwn(body, key)) throw badRequest('Request body and URI mismatch');
  if (Object.keys(body).length > 1) throw badRequest('Request body contains too many items');
  return body;
};
