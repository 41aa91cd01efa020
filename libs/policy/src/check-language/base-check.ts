import type { CheckNode } from './check-tree.js';
import { CheckSyntaxError } from './check-syntax-error.js';

/** oslo.policy's HTTP checks call out to a server; Hawser does not offer them. */
const UNSUPPORTED_KINDS = new Set(['http', 'https']);

/**
 * One check between operators: `@`, `!`, `rule:name`, `role:name`, or `kind:match` where kind is
 * a Python literal (`True`, `'text'`, `42`) or a credential field path (`project_id`,
 * `is_admin`), as oslo.policy's GenericCheck reads it.
 */
export const parseBaseCheck = (text: string): CheckNode => {
  if (text === '@') return { kind: 'always' };
  if (text === '!') return { kind: 'never' };
  const colon = text.indexOf(':');
  if (colon < 0) throw new CheckSyntaxError(`"${text}" is not a check (expected kind:match)`);
  const kind = text.slice(0, colon);
  const match = text.slice(colon + 1);
  checkPlaceholders(text, match);
  if (kind === 'rule') {
    if (match === '') throw new CheckSyntaxError(`"${text}" names no rule`);
    return { kind: 'rule', rule: match };
  }
  if (kind === 'role') return { kind: 'role', match };
  if (UNSUPPORTED_KINDS.has(kind)) {
    throw new CheckSyntaxError(`"${text}": ${kind} checks are not supported`);
  }
  const literal = pythonLiteral(kind);
  if (literal !== undefined) return { kind: 'literal', value: literal, match };
  const path = kind.split('.');
  if (path.some((segment) => segment === '')) {
    throw new CheckSyntaxError(`"${text}" does not name a credential field`);
  }
  return { kind: 'credential', path, match };
};

/** Only `%(field)s` and `%%` are placeholders Python's `%` operator reads from a mapping. */
const checkPlaceholders = (text: string, match: string): void => {
  const rest = match.replace(/%\([^()]*\)s|%%/g, '');
  if (rest.includes('%')) {
    throw new CheckSyntaxError(`"${text}": only %(field)s substitutions are allowed`);
  }
};

/** The text Python's str() gives a literal kind, or undefined when the kind is not a literal. */
const pythonLiteral = (kind: string): string | undefined => {
  if (/^'[^'\\]*'$|^"[^"\\]*"$/.test(kind)) return kind.slice(1, -1);
  if (kind === 'True' || kind === 'False' || kind === 'None') return kind;
  if (/^-?(0|[1-9]\d*)$/.test(kind)) return kind;
  return undefined;
};
