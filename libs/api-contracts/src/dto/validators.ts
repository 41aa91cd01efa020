import { registerDecorator, type ValidationOptions } from 'class-validator';

const TRUE_WORDS = ['1', 't', 'true', 'on', 'y', 'yes'];
const FALSE_WORDS = ['0', 'f', 'false', 'off', 'n', 'no'];

/** oslo's strict bool_from_string: booleans, or the usual words. Undefined when not one. */
export const toBoolean = (value: unknown): boolean | undefined => {
  if (typeof value === 'boolean') return value;
  if (typeof value !== 'string') return undefined;
  const word = value.trim().toLowerCase();
  if (TRUE_WORDS.includes(word)) return true;
  if (FALSE_WORDS.includes(word)) return false;
  return undefined;
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
