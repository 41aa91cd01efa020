import { registerDecorator, type ValidationOptions } from 'class-validator';
import { badRequest } from '../errors/manila-error.js';
import { pythonText } from '../errors/python-text.js';

const TRUE_WORDS = ['1', 't', 'true', 'on', 'y', 'yes'];
const FALSE_WORDS = ['0', 'f', 'false', 'off', 'n', 'no'];

/**
 * oslo's strict bool_from_string: a boolean, or the str() of anything else read as one of the
 * usual words (so 1 and 0 are true and false, null is "None", no word). Undefined when not one.
 */
export const toBoolean = (value: unknown): boolean | undefined => {
  if (typeof value === 'boolean') return value;
  const word = pythonText(value).trim().toLowerCase();
  if (TRUE_WORDS.includes(word)) return true;
  if (FALSE_WORDS.includes(word)) return false;
  return undefined;
};

/** `toBoolean`, refusing what it cannot read with the ValueError oslo raises, as Manila answers it. */
export const strictBoolean = (value: unknown): boolean => {
  const read = toBoolean(value);
  if (read !== undefined) return read;
  const acceptable = [...TRUE_WORDS, ...FALSE_WORDS]
    .sort()
    .map((word) => `'${word}'`)
    .join(', ');
  throw badRequest(
    `Unrecognized value '${pythonText(value)}', acceptable values are: ${acceptable}`,
  );
};

/** A positive integer given as a number or a string of digits (Manila casts with int()). */
export const toPositiveInteger = (value: unknown): number | undefined => {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^\s*\d+\s*$/.test(value)) return Number(value);
  return undefined;
};

const custom =
  (name: string, test: (value: unknown) => boolean, message: string) =>
  (options?: ValidationOptions) =>
  (target: object, propertyName: string) =>
    registerDecorator({
      name,
      target: target.constructor,
      propertyName,
      options: { message, ...options },
      validator: { validate: (value: unknown) => value === undefined || test(value) },
    });

export const IsBooleanLike = custom(
  'isBooleanLike',
  (v) => toBoolean(v) !== undefined,
  '$property must be a boolean',
);
/** A number or a string: what the use case then reads as a size, in Manila's words if it is none. */
export const IsNumberOrString = custom(
  'isNumberOrString',
  (v) => typeof v === 'number' || typeof v === 'string',
  '$property must be an integer',
);
export const IsStringMap = custom(
  'isStringMap',
  (v) =>
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    Object.values(v).every((x) => typeof x === 'string'),
  '$property must be an object of string values',
);
export const IsNullableString = custom(
  'isNullableString',
  (v) => v === null || (typeof v === 'string' && v.length <= 255),
  '$property must be a string of at most 255 characters',
);
