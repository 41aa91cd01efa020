import { badRequest } from './manila-error.js';
import { requireBodyKey } from './validate-body.js';

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
