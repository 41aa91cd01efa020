import type { FieldCondition, Filter } from './document-store.port.js';
import { fieldValue, likeToRegExpSource, operatorOf } from './field-name.js';

type Scalar = string | number | boolean | null;

/**
 * Whether a document passes a filter, in memory, with the meaning the stores give it (the
 * contract suite checks they agree). Used for documents a batch has written but not committed.
 */
export function matchesFilter(document: object, filter: Filter | undefined): boolean {
  return Object.entries(filter ?? {}).every(([field, condition]) =>
    matchesCondition(fieldValue(document, field), condition),
  );
}

function matchesCondition(value: unknown, condition: FieldCondition): boolean {
  if (condition === null || typeof condition !== 'object') return equals(value, condition);
  const [operator, operand] = operatorOf(condition);
  switch (operator) {
    case '$ne':
      return !equals(value, operand as Scalar);
    case '$in':
      return (operand as readonly Scalar[]).some((option) => equals(value, option));
    case '$gt':
      return (
        comparable(value, operand) && (value as string | number) > (operand as string | number)
      );
    case '$gte':
      return (
        comparable(value, operand) && (value as string | number) >= (operand as string | number)
      );
    case '$lt':
      return (
        comparable(value, operand) && (value as string | number) < (operand as string | number)
      );
    case '$lte':
      return (
        comparable(value, operand) && (value as string | number) <= (operand as string | number)
      );
    case '$like':
      return typeof value === 'string' && likePattern(String(operand)).test(value);
    case '$exists':
      return (value !== undefined) === operand;
    default:
      throw new Error(`unsupported filter operator ${operator}`);
  }
}

/** Null also matches a missing field. */
function equals(value: unknown, expected: Scalar): boolean {
  return expected === null ? value === null || value === undefined : value === expected;
}

/** Ranges compare only values of the operand's type. */
function comparable(value: unknown, operand: unknown): boolean {
  return (
    typeof value === typeof operand && (typeof value === 'string' || typeof value === 'number')
  );
}

const likePatterns = new Map<string, RegExp>();

/** SQL LIKE is case-insensitive for ASCII letters. */
function likePattern(pattern: string): RegExp {
  let regExp = likePatterns.get(pattern);
  if (regExp === undefined) {
    if (likePatterns.size >= 1_000) likePatterns.clear();
    regExp = new RegExp(likeToRegExpSource(pattern), 'i');
    likePatterns.set(pattern, regExp);
  }
  return regExp;
}
