import { CheckSyntaxError } from './check-syntax-error.js';

export type CheckToken =
  | { readonly type: '(' | ')' | 'and' | 'or' | 'not' }
  | { readonly type: 'check'; readonly text: string };

const OPERATORS = new Set(['and', 'or', 'not']);

/**
 * Splits a check string as oslo.policy does: on whitespace, with parentheses peeled off the
 * start and end of each word (a `%(field)s` inside a check never starts or ends it), and the
 * operators recognised in any letter case.
 */
export const tokenizeCheck = (text: string): CheckToken[] => {
  const tokens: CheckToken[] = [];
  for (const word of text.split(/\s+/)) {
    if (word === '') continue;
    const opened = word.length - word.replace(/^\(+/, '').length;
    const inner = word.slice(opened).replace(/\)+$/, '');
    const closed = word.length - opened - inner.length;
    for (let i = 0; i < opened; i++) tokens.push({ type: '(' });
    if (inner !== '') tokens.push(wordToken(inner));
    for (let i = 0; i < closed; i++) tokens.push({ type: ')' });
  }
  return tokens;
};

const wordToken = (word: string): CheckToken => {
  const lowered = word.toLowerCase();
  if (OPERATORS.has(lowered)) return { type: lowered as 'and' | 'or' | 'not' };
  if (/^(['"]).*\1$/.test(word) && word.length >= 2) {
    throw new CheckSyntaxError(`a quoted string (${word}) is not a check`);
  }
  return { type: 'check', text: word };
};
