/**
 * The values Manila's evaluator computes with, and Python's rules for them: expressions run
 * on Python numbers, booleans, strings and lists, and a TypeError there fails the host.
 */
export type PyValue = number | boolean | string | readonly PyValue[];

/** Any evaluation failure: Manila fails the host (filter) or rates it 0 (goodness). */
export class ExpressionError extends Error {
  override readonly name = 'ExpressionError';
}

const INT_TEXT = /^[+-]?\d+(?:_\d+)*$/;
const FLOAT_TEXT =
  /^[+-]?(?:(?:\d+(?:_\d+)*)?\.\d+(?:_\d+)*|\d+(?:_\d+)*\.?)(?:[eE][+-]?\d+(?:_\d+)*)?$/;
const SPECIAL_FLOAT = /^([+-]?)(inf|infinity|nan)$/i;

/** Python's int(str): undefined where Python raises ValueError. */
export const parsePythonInt = (text: string): number | undefined => {
  const trimmed = text.trim();
  return INT_TEXT.test(trimmed) ? Number(trimmed.replaceAll('_', '')) : undefined;
};

/** Python's float(str): undefined where Python raises ValueError. */
export const parsePythonFloat = (text: string): number | undefined => {
  const trimmed = text.trim();
  if (FLOAT_TEXT.test(trimmed)) return Number(trimmed.replaceAll('_', ''));
  const special = SPECIAL_FLOAT.exec(trimmed);
  if (!special) return undefined;
  if ((special[2] as string).toLowerCase() === 'nan') return NaN;
  return special[1] === '-' ? -Infinity : Infinity;
};

const stripQuotes = (text: string): string => text.replaceAll('"', '').replaceAll("'", '');

/**
 * What EvalConstant does to every operand: int() first, then float(), else the string with its
 * quotes removed. A float is truncated toward zero (69.9 -> 69); null, lists and maps raise.
 */
export const coerceOperand = (value: unknown): PyValue => {
  switch (typeof value) {
    case 'boolean':
      return value ? 1 : 0;
    case 'number':
      if (Number.isNaN(value)) return value;
      if (!Number.isFinite(value))
        throw new ExpressionError('OverflowError: cannot convert float infinity to integer');
      return Math.trunc(value);
    case 'string':
      return parsePythonInt(value) ?? parsePythonFloat(value) ?? stripQuotes(value);
    default:
      throw new ExpressionError(
        `TypeError: int() argument must be a string or a number, not ${describe(value)}`,
      );
  }
};

const describe = (value: unknown): string =>
  value === null || value === undefined ? 'NoneType' : Array.isArray(value) ? 'list' : typeof value;

const isNumeric = (value: PyValue): value is number | boolean =>
  typeof value === 'number' || typeof value === 'boolean';

const toNumber = (value: number | boolean): number =>
  typeof value === 'boolean' ? (value ? 1 : 0) : value;

const typeError = (operation: string, left: PyValue, right: PyValue): ExpressionError =>
  new ExpressionError(
    `TypeError: unsupported operands for ${operation}: ${describe(left)} and ${describe(right)}`,
  );

export const truthy = (value: PyValue): boolean => {
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'boolean') return value;
  return value.length > 0;
};

const isInteger = (value: PyValue): value is number | boolean =>
  typeof value === 'boolean' || (typeof value === 'number' && Number.isInteger(value));

const repeat = <T>(items: readonly T[], count: number): T[] => {
  const result: T[] = [];
  for (let i = 0; i < count; i++) result.push(...items);
  return result;
};

export const add = (left: PyValue, right: PyValue): PyValue => {
  if (isNumeric(left) && isNumeric(right)) return toNumber(left) + toNumber(right);
  if (typeof left === 'string' && typeof right === 'string') return left + right;
  if (Array.isArray(left) && Array.isArray(right)) return [...left, ...right];
  throw typeError('+', left, right);
};

export const subtract = (left: PyValue, right: PyValue): PyValue => {
  if (isNumeric(left) && isNumeric(right)) return toNumber(left) - toNumber(right);
  throw typeError('-', left, right);
};

export const multiply = (left: PyValue, right: PyValue): PyValue => {
  if (isNumeric(left) && isNumeric(right)) return toNumber(left) * toNumber(right);
  if (isInteger(left) && !isNumeric(right)) return multiply(right, left);
  if (typeof left === 'string' && isInteger(right))
    return left.repeat(Math.max(0, toNumber(right)));
  if (Array.isArray(left) && isInteger(right)) return repeat(left, toNumber(right));
  throw typeError('*', left, right);
};

/** `a / b` is `a / float(b)` in Manila, so a numeric string divisor works. */
export const divide = (left: PyValue, right: PyValue): PyValue => {
  const divisor = toFloat(right);
  if (!isNumeric(left)) throw typeError('/', left, right);
  if (divisor === 0) throw new ExpressionError('ZeroDivisionError: float division by zero');
  return toNumber(left) / divisor;
};

const toFloat = (value: PyValue): number => {
  if (isNumeric(value)) return toNumber(value);
  if (typeof value === 'string') {
    const parsed = parsePythonFloat(value);
    if (parsed !== undefined) return parsed;
    throw new ExpressionError(`ValueError: could not convert string to float: '${value}'`);
  }
  throw new ExpressionError('TypeError: float() argument must be a string or a number, not list');
};

export const power = (base: PyValue, exponent: PyValue): PyValue => {
  if (!isNumeric(base) || !isNumeric(exponent)) throw typeError('** or pow()', base, exponent);
  const b = toNumber(base);
  const e = toNumber(exponent);
  if (b === 0 && e < 0)
    throw new ExpressionError('ZeroDivisionError: 0.0 cannot be raised to a negative power');
  if (b < 0 && !Number.isInteger(e)) throw new ExpressionError('complex result');
  return b ** e;
};

export const equals = (left: PyValue, right: PyValue): boolean => {
  if (isNumeric(left) && isNumeric(right)) return toNumber(left) === toNumber(right);
  if (typeof left === 'string' && typeof right === 'string') return left === right;
  if (Array.isArray(left) && Array.isArray(right)) {
    return (
      left.length === right.length && left.every((item, i) => equals(item, right[i] as PyValue))
    );
  }
  return false;
};

/** Python ordering: numbers with numbers, strings with strings, lists item by item; else TypeError. */
export const compareOrder = (left: PyValue, right: PyValue): number => {
  if (isNumeric(left) && isNumeric(right)) {
    const a = toNumber(left);
    const b = toNumber(right);
    return a < b ? -1 : a > b ? 1 : a === b ? 0 : NaN;
  }
  if (typeof left === 'string' && typeof right === 'string') {
    return left < right ? -1 : left > right ? 1 : 0;
  }
  if (Array.isArray(left) && Array.isArray(right)) {
    const length = Math.min(left.length, right.length);
    for (let i = 0; i < length; i++) {
      const a = left[i] as PyValue;
      const b = right[i] as PyValue;
      if (!equals(a, b)) return compareOrder(a, b);
    }
    return left.length - right.length;
  }
  throw typeError('ordering comparison', left, right);
};

const ensureIterable = (value: PyValue, name: string): readonly PyValue[] => {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') return [...value];
  throw new ExpressionError(`TypeError: '${describe(value)}' object is not iterable (${name})`);
};

const extreme = (
  values: readonly PyValue[],
  name: string,
  better: (order: number) => boolean,
): PyValue => {
  if (values.length === 0)
    throw new ExpressionError(`ValueError: ${name}() arg is an empty sequence`);
  let best = values[0] as PyValue;
  for (let i = 1; i < values.length; i++) {
    const candidate = values[i] as PyValue;
    if (better(compareOrder(candidate, best))) best = candidate;
  }
  return best;
};

/** abs, max and min, called as Python calls them: a list argument is spread. */
export const callFunction = (name: string, argument: PyValue): PyValue => {
  const args: readonly PyValue[] = Array.isArray(argument) ? argument : [argument];
  switch (name) {
    case 'abs': {
      const only = args[0] as PyValue;
      if (args.length !== 1 || !isNumeric(only))
        throw new ExpressionError('TypeError: bad operand type for abs()');
      return Math.abs(toNumber(only));
    }
    case 'max':
    case 'min': {
      const values = args.length === 1 ? ensureIterable(args[0] as PyValue, name) : args;
      return extreme(values, name, name === 'max' ? (order) => order > 0 : (order) => order < 0);
    }
    default:
      throw new ExpressionError(`KeyError: '${name}'`);
  }
};
