import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { ManilaHttpError } from './manila-error.js';

/** Validates a body part with its DTO; a failure is Manila's 400 naming the first problem. */
export const validateBody = async <T extends object>(
  dto: new () => T,
  plain: unknown,
  what: string,
): Promise<T> => {
  if (typeof plain !== 'object' || plain === null || Array.isArray(plain)) {
    throw new ManilaHttpError(400, `Invalid request body: ${what} must be an object.`);
  }
  const instance = plainToInstance(dto, plain);
  const errors = await validate(instance, { forbidUnknownValues: false });
  const first = errors[0];
  if (first) {
    const message = Object.values(first.constraints ?? {})[0] ?? `${first.property} is invalid`;
    throw new ManilaHttpError(400, `Invalid ${what}: ${message}.`);
  }
  return instance;
};

/** Manila answers 422 when the body lacks its top-level object (e.g. `share`). */
export const requireBodyKey = (body: unknown, key: string): unknown => {
  if (typeof body !== 'object' || body === null || !(key in body)) {
    throw new ManilaHttpError(422, `Unable to process the contained instructions: missing ${key}.`);
  }
  return (body as Record<string, unknown>)[key];
};
