import { badRequest } from '../http/manila-error.js';
import { isJsonObject } from '../http/validate-body.js';

export interface ServiceUpdateBody {
  readonly host: string;
  readonly binary: string;
  readonly reason: string | null;
}

/**
 * The body of `PUT /services/enable|disable`: Manila's `{host, binary}` (400 without them).
 * `disabled_reason` (Manila 2.83) is kept when given: a string of at most 255 characters.
 */
export const serviceUpdateBody = (body: unknown): ServiceUpdateBody => {
  const host = isJsonObject(body) ? body.host : undefined;
  const binary = isJsonObject(body) ? body.binary : undefined;
  if (typeof host !== 'string' || typeof binary !== 'string') {
    throw badRequest('Service host and binary must be given as strings.');
  }
  const reason = isJsonObject(body) ? body.disabled_reason : undefined;
  if (reason !== undefined && reason !== null) {
    if (typeof reason !== 'string' || reason.trim() === '' || reason.length > 255) {
      throw badRequest('disabled_reason must be a non-empty string of at most 255 characters.');
    }
  }
  return { host, binary, reason: typeof reason === 'string' ? reason : null };
};
