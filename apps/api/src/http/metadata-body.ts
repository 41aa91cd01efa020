import { badRequest } from './manila-error.js';
import { isJsonObject, requireBodyKey } from './validate-body.js';

/**
 * The `metadata` object of a metadata request: an object of strings, else Manila's 400. Its
 * keys are data: `__proto__` or `constructor` come back as own keys, like any other.
 */
export const metadataFromBody = (body: unknown): Record<string, string> => {
  const metadata = requireBodyKey(body, 'metadata', 400);
  if (!Object.values(metadata).every((v) => typeof v === 'string')) {
    throw badRequest('Malformed request body: metadata must be an object of strings.');
  }
  return metadata as Record<string, string>;
};

/**
 * The one item of `POST …/metadata/{key}`: `{"metadata": {key: value}}` (or `meta`), naming the
 * key of the path and no other (Manila's "Request body and URI mismatch", "too many items").
 */
export const metadataItemFromBody = (body: unknown, key: string): Record<string, string> => {
  const item = isJsonObject(body) ? (body.metadata ?? body.meta) : undefined;
  if (!isJsonObject(item)) throw badRequest('Malformed request body');
  if (!Object.hasOwn(item, key)) throw badRequest('Request body and URI mismatch');
  if (Object.keys(item).length > 1) throw badRequest('Request body contains too many items');
  const value = item[key];
  if (typeof value !== 'string') {
    throw badRequest('Malformed request body: metadata must be an object of strings.');
  }
  return { [key]: value };
};
