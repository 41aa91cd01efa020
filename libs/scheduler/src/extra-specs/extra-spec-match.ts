import { parsePythonFloat } from '../expressions/python-values.js';
import { boolFromString } from './bool-from-string.js';

type Method = (value: unknown, word: string) => boolean;

/** float() of a capability value; NaN where Python raises ValueError (which fails the match). */
const toFloat = (value: unknown): number => {
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string') return parsePythonFloat(value) ?? NaN;
  return NaN;
};

const numeric =
  (compare: (a: number, b: number) => boolean): Method =>
  (value, word) => {
    const a = toFloat(value);
    const b = toFloat(word);
    return !Number.isNaN(a) && !Number.isNaN(b) && compare(a, b);
  };

/** Ordering between a string and a non-string raises TypeError in Python; it never matches here. */
const stringOrder =
  (compare: (a: string, b: string) => boolean): Method =>
  (value, word) =>
    typeof value === 'string' && compare(value, word);

/** Manila 15.1's operators (scheduler/filters/extra_specs_ops.py); `=` means at least. */
const METHODS: ReadonlyMap<string, Method> = new Map<string, Method>([
  ['=', numeric((a, b) => a >= b)],
  [
    '<in>',
    (value, word) =>
      typeof value === 'string'
        ? value.includes(word)
        : Array.isArray(value) && value.includes(word),
  ],
  ['<is>', (value, word) => boolFromString(value, false) === boolFromString(word, false)],
  ['==', numeric((a, b) => a === b)],
  ['!=', numeric((a, b) => a !== b)],
  ['>=', numeric((a, b) => a >= b)],
  ['<=', numeric((a, b) => a <= b)],
  ['s==', (value, word) => value === word],
  ['s!=', (value, word) => value !== word],
  ['s<', stringOrder((a, b) => a < b)],
  ['s<=', stringOrder((a, b) => a <= b)],
  ['s>', stringOrder((a, b) => a > b)],
  ['s>=', stringOrder((a, b) => a >= b)],
]);

/** A share-type requirement, lower-cased and split once so each pool only pays the comparison. */
export interface ParsedRequirement {
  readonly raw: string;
  readonly lowered: string;
  readonly operator: string | null;
  readonly words: readonly string[];
}

export const parseRequirement = (raw: string): ParsedRequirement => {
  const lowered = raw.toLowerCase();
  const words = lowered.split(/\s+/).filter((word) => word.length > 0);
  const first = words[0];
  const operator = first !== undefined && (first === '<or>' || METHODS.has(first)) ? first : null;
  return { raw, lowered, operator, words: operator ? words.slice(1) : words };
};

/** Manila's extra_specs_ops.match(value, req) for one capability value (not a list). */
export const matchRequirement = (capability: unknown, requirement: ParsedRequirement): boolean => {
  const value = typeof capability === 'string' ? capability.toLowerCase() : capability;
  const { operator, words, lowered } = requirement;
  if (operator === null) {
    if (typeof value === 'boolean') return value === boolFromString(lowered, lowered);
    return value === lowered;
  }
  if (value === null || value === undefined) return false;
  if (operator === '<or>') return matchesOr(value, words);
  const word = words[0];
  return word !== undefined && (METHODS.get(operator) as Method)(value, word);
};

/** `<or> a <or> b`: every other word is a candidate value (the words between are skipped). */
const matchesOr = (value: unknown, words: readonly string[]): boolean => {
  for (let i = 0; i < words.length; i += 2) {
    if (words[i] === value) return true;
  }
  return false;
};

/** A list capability passes when any element matches (capabilities_satisfied). */
export const matchCapability = (capability: unknown, requirement: ParsedRequirement): boolean => {
  if (!Array.isArray(capability)) return matchRequirement(capability, requirement);
  for (const element of capability) {
    if (matchRequirement(element, requirement)) return true;
  }
  return false;
};
