import { validateSync } from 'class-validator';
import { ManilaHttpError } from './manila-error.js';

/** A JSON object: not null, not an array, not a scalar. */
export const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `plain`'s own keys on an instance of `dto`, as they are: user maps (metadata, extra specs,
 * hints) keep keys such as `constructor` or `__proto__`, which class-transformer drops or trips
 * on, and a top-level `__proto__` key stays a key instead of replacing the prototype.
 */
const instanceOf = <T extends object>(dto: new () => T, plain: Record<string, unknown>): T => {
  const instance = new dto();
  for (const [key, value] of Object.entries(plain)) {
    Object.defineProperty(instance, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return instance;
};

/**
 * Validates a body part with its DTO; a failure is Manila's 400 naming the first problem. The
 * DTOs' validators are all synchronous, so the synchronous run gives the same errors without
 * a promise per property.
 */
export const validateBody = async <T extends object>(
  dto: new () => T,
  plain: unknown,
  what: string,
): Promise<T> => {
  if (!isJsonObject(plain)) {
    throw new ManilaHttpError(400, `Invalid request body: ${what} must be an object.`);
  }
  const instance = instanceOf(dto, plain);
  const errors = validateSync(instance, { forbidUnknownValues: false });
  const first = errors[0];
  if (first) {
    // A property's failed constraints come in the order its decorators ran, bottom-up: the
    // last is the one written first, its type (a number for share_type is "must be a string",
    // not "must be shorter than 255 characters").
    const message = Object.values(first.constraints ?? {}).at(-1) ?? `${first.property} is invalid`;
    throw new ManilaHttpError(400, `Invalid ${what}: ${message}.`);
  }
  return instance;
};

/**
 * The object a body wraps under `key` (`{"share": {...}}`). As Manila's `is_valid_body`, a body
 * without the key and one holding anything but an object under it are refused alike: 422 where
 * Manila answers HTTPUnprocessableEntity (share, snapshot and replica writes), else the 400 the
 * route's Manila counterpart gives.
 */
export const requireBodyKey = (
  body: unknown,
  key: string,
  status: 400 | 422 = 422,
): Record<string, unknown> => {
  const part = isJsonObject(body) && Object.hasOwn(body, key) ? body[key] : undefined;
  if (isJsonObject(part)) return part;
  const problem = part === undefined ? `missing ${key}` : `${key} must be an object`;
  throw new ManilaHttpError(
    status,
    status === 400
      ? `Malformed request body: ${problem}.`
      : `Unable to process the contained instructions: ${problem}.`,
  );
};
