import { ExpressionError } from './python-values.js';

export type TokenKind = 'integer' | 'real' | 'word' | 'string' | 'operator';

export interface Token {
  readonly kind: TokenKind;
  readonly text: string;
  readonly position: number;
}

/** Longest first, so `<=` is never read as `<` then `=`. */
const OPERATORS = [
  '<=',
  '>=',
  '==',
  '!=',
  '<>',
  '&&',
  '||',
  '<',
  '>',
  '!',
  '+',
  '-',
  '*',
  '/',
  '^',
  '?',
  ':',
  '(',
  ')',
  ',',
];

const TOKEN_PATTERNS: ReadonlyArray<readonly [TokenKind, RegExp]> = [
  ['real', /\d+\.\d+/y],
  ['integer', /\d+/y],
  ['word', /[A-Za-z_.]+/y],
  ['string', /"(?:[^"\n\r\\]|""|\\.)*"|'(?:[^'\n\r\\]|''|\\.)*'/y],
];

/** Splits an expression into the tokens of Manila's evaluator grammar (pyparsing skips blanks). */
export const tokenize = (source: string): Token[] => {
  const tokens: Token[] = [];
  let position = 0;
  outer: while (position < source.length) {
    const char = source[position] as string;
    if (/\s/.test(char)) {
      position++;
      continue;
    }
    for (const [kind, pattern] of TOKEN_PATTERNS) {
      pattern.lastIndex = position;
      const match = pattern.exec(source);
      if (match) {
        tokens.push({ kind, text: match[0], position });
        position += match[0].length;
        continue outer;
      }
    }
    const operator = OPERATORS.find((candidate) => source.startsWith(candidate, position));
    if (!operator) throw new ExpressionError(`ParseException: unexpected '${char}' at ${position}`);
    tokens.push({ kind: 'operator', text: operator, position });
    position += operator.length;
  }
  return tokens;
};
